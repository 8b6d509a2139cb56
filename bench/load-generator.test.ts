import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import autocannon from "./load-generator";

let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

describe("the benchmarks' load generator", () => {
  it("times each answer from its own request when the server closes connections", async () => {
    // Every second answer on a connection says Connection: close, as the app's workers do when
    // they hand clients over to another process (decision 0355).
    const answered = new WeakMap<object, number>();
    server = http.createServer((request, response) => {
      const count = (answered.get(request.socket) ?? 0) + 1;
      answered.set(request.socket, count);
      if (count % 2 === 0) response.setHeader("Connection", "close");
      setTimeout(() => response.end("ok"), 5);
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;

    const connections = 4;
    const times: number[] = [];
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      const instance = autocannon({ url: `http://127.0.0.1:${port}/`, connections, duration: 1 }, (error) =>
        error ? reject(error) : resolve(),
      );
      instance.on("response", (_client, _status, _bytes, responseTime) => times.push(responseTime));
    });
    const elapsed = performance.now() - started;

    // One request at a time per connection: the answers' times cannot add up to more than the
    // run's length once per connection. Timed from an older request, they add up to about twice that.
    expect(times.length).toBeGreaterThan(20);
    const total = times.reduce((sum, time) => sum + time, 0);
    expect(total).toBeLessThanOrEqual(connections * elapsed);
  });
});
