// The benchmarks' load generator: autocannon, with its client's reconnect fixed.
//
// autocannon 8 and 9 keep one queue per connection of the requests they have sent, and time each
// answer from the request at the head of that queue. When an answer says `Connection: close`,
// the client still writes its next request on that connection, then reconnects on the server's
// FIN and sends another on the new one, without dropping the first from the queue. From then on,
// every answer on that client is timed from the request before it. The app closes connections on
// purpose when it runs as several processes (decision 0355 moves a busy worker's excess clients to
// the other), so with WORKERS=2 each client soon timed two or three requests as one: p50 400 ms at
// 315 pages/s and 50 connections, where at most 50 / 315 = 159 ms on average is possible (wrk, on
// the same app: 141 ms). A new connection starts with no request in flight, so its queue is cleared.
import { createRequire } from "node:module";
import autocannon from "autocannon";

interface ClientInternals {
  pipelinedRequests?: { clear(): void };
}

const requireFromHere = createRequire(import.meta.url);
const Client = requireFromHere("autocannon/lib/httpClient.js") as {
  prototype: { _connect?: (this: ClientInternals, ...args: unknown[]) => unknown };
};
const connect = Client.prototype._connect;
if (typeof connect !== "function") {
  throw new Error(
    "autocannon's client no longer has _connect: check bench/load-generator.ts against its lib/httpClient.js",
  );
}
Client.prototype._connect = function reconnectWithNoStaleRequest(this: ClientInternals, ...args: unknown[]) {
  this.pipelinedRequests?.clear();
  return connect.apply(this, args);
};

export default autocannon;
export type { Result } from "autocannon";
