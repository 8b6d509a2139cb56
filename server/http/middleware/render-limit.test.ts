import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { BUSY_MESSAGE, createRenderLimiter, type RenderLimitOptions } from "./render-limit";

/** An app whose /page answers only when the test lets it, behind a limiter. */
async function startLimitedApp(options: RenderLimitOptions) {
  const limiter = createRenderLimiter(options);
  const pending: Array<() => void> = [];
  const slowAhead: Array<() => void> = [];
  let started = 0;
  const app = express();
  app.get("/healthz", (_req, res) => {
    res.send("ok");
  });
  // Stands for the async work ahead of the limiter (a session lookup, the page cache's geo gate).
  app.use((req, _res, next) => {
    if (req.query.slow === undefined) next();
    else slowAhead.push(next);
  });
  app.use(limiter.middleware);
  app.all("/page", (_req, res) => {
    started += 1;
    pending.push(() => res.send("page"));
  });
  const server = app.listen(0);
  await new Promise((resolve) => server.once("listening", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    limiter,
    started: () => started,
    finishOne: () => pending.shift()?.(),
    slowAheadWaiting: () => slowAhead.length,
    letSlowAheadGo: () => slowAhead.shift()?.(),
    close: () => {
      for (const finish of pending.splice(0)) finish();
      server.closeAllConnections();
      server.close();
    },
  };
}

async function until(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(check()).toBe(true);
}

let close = () => {};
afterEach(() => close());

describe("render limiter (decision 0107)", () => {
  it("runs up to the limit, queues a few, and refuses the rest at once with 503 and Retry-After", async () => {
    const app = await startLimitedApp({
      maxInFlight: 2,
      maxQueued: 1,
      maxWaitMs: 10_000,
      retryAfterSeconds: 3,
    });
    close = app.close;
    const first = fetch(`${app.base}/page`);
    const second = fetch(`${app.base}/page`);
    await until(() => app.started() === 2);
    const queued = fetch(`${app.base}/page`);
    await until(() => app.limiter.stats().queued === 1);

    const refused = await fetch(`${app.base}/page`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("3");
    expect(refused.headers.get("cache-control")).toBe("no-store");
    expect(await refused.text()).toBe(BUSY_MESSAGE);

    // Requests outside the limiter are not held up by the renders.
    const health = await fetch(`${app.base}/healthz`);
    expect(await health.text()).toBe("ok");

    app.finishOne();
    expect(await (await first).text()).toBe("page");
    await until(() => app.started() === 3);
    app.finishOne();
    app.finishOne();
    expect((await second).status).toBe(200);
    expect(await (await queued).text()).toBe("page");
    expect(app.limiter.stats()).toEqual({ inFlight: 0, queued: 0, refused: 1 });
  });

  it("answers a request that waited too long with 503 instead of keeping it", async () => {
    const app = await startLimitedApp({ maxInFlight: 1, maxQueued: 5, maxWaitMs: 50, retryAfterSeconds: 1 });
    close = app.close;
    const running = fetch(`${app.base}/page`);
    await until(() => app.started() === 1);
    const waited = await fetch(`${app.base}/page`);
    expect(waited.status).toBe(503);
    expect(app.limiter.stats().queued).toBe(0);
    app.finishOne();
    expect((await running).status).toBe(200);
    expect(app.started()).toBe(1);
  });

  it("never limits writes: a student's post is not dropped for load", async () => {
    const app = await startLimitedApp({
      maxInFlight: 1,
      maxQueued: 0,
      maxWaitMs: 1_000,
      retryAfterSeconds: 1,
    });
    close = app.close;
    const running = fetch(`${app.base}/page`);
    await until(() => app.started() === 1);
    const write = fetch(`${app.base}/page`, { method: "POST" });
    await until(() => app.started() === 2);
    app.finishOne();
    app.finishOne();
    expect((await running).status).toBe(200);
    expect((await write).status).toBe(200);
  });

  it("frees the place of a client that went away", async () => {
    const app = await startLimitedApp({
      maxInFlight: 1,
      maxQueued: 0,
      maxWaitMs: 1_000,
      retryAfterSeconds: 1,
    });
    close = app.close;
    const abort = new AbortController();
    const gone = fetch(`${app.base}/page`, { signal: abort.signal }).catch(() => null);
    await until(() => app.started() === 1);
    abort.abort();
    await gone;
    await until(() => app.limiter.stats().inFlight === 0);
    const next = fetch(`${app.base}/page`);
    await until(() => app.started() === 2);
    app.finishOne();
    app.finishOne();
    expect((await next).status).toBe(200);
  });

  it("frees the place of a client that left before reaching the limiter", async () => {
    const app = await startLimitedApp({
      maxInFlight: 1,
      maxQueued: 0,
      maxWaitMs: 1_000,
      retryAfterSeconds: 1,
    });
    close = app.close;
    const abort = new AbortController();
    const gone = fetch(`${app.base}/page?slow`, { signal: abort.signal }).catch(() => null);
    await until(() => app.slowAheadWaiting() === 1);
    abort.abort();
    await gone;
    // The connection is closed before the limiter ever sees the request.
    await new Promise((resolve) => setTimeout(resolve, 50));
    app.letSlowAheadGo();
    await new Promise((resolve) => setTimeout(resolve, 20));
    app.finishOne();
    await until(() => app.limiter.stats().inFlight === 0);
    const next = fetch(`${app.base}/page`);
    await until(() => app.started() >= 1 && app.limiter.stats().inFlight === 1);
    app.finishOne();
    expect((await next).status).toBe(200);
  });
});
