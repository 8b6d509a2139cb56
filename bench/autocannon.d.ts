// The part of autocannon's API the load script uses (the package ships no types).
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    /** Only on `requests`: how many in all. */
    total?: number;
  }

  export interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  interface Options {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    headers?: Record<string, string>;
    method?: string;
    /** Seconds. */
    timeout?: number;
    /** Requests in turn; setupRequest may change each one before it goes (a cookie per user). */
    requests?: RequestSpec[];
  }

  interface RequestParams {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
  }

  interface RequestSpec extends RequestParams {
    setupRequest?: (request: RequestParams) => RequestParams;
  }

  interface Instance extends EventEmitter {
    stop(): void;
    on(
      event: "response",
      listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void,
    ): this;
  }

  function autocannon(options: Options, callback: (error: Error | null, result: Result) => void): Instance;
  export default autocannon;
}
