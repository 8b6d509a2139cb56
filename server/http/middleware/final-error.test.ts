import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routeServerBuild } from "../../../tests/support/route-server";
import { type RunningApp, startApp } from "../app";

// Decision 0471: outside production, a TRACE or an over-long body was answered by
// Express's own error handler, with a stack trace and the install path. The whole app, as main.js
// mounts it, with NODE_ENV unset: every such request gets our page or JSON, and its status.

let running: RunningApp;
let base = "";
let server: http.Server;
let dataDir = "";

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "cbs-final-error-"));
  running = await startApp({
    dev: false,
    // NODE_ENV unset, as a newcomer's first run: Express's own handler would print stacks.
    env: { DATA_DIR: dataDir, LOG_LEVEL: "silent", TEST_FIXTURES: "1", SEED_DEMO: "0" },
    build: async () => routeServerBuild([]),
  });
  const outer = express();
  outer.set("env", "development");
  outer.use(running.listPages);
  outer.use(running.app);
  outer.use(running.errors);
  server = outer.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await running.close();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A raw request (fetch refuses TRACE and bad paths), read to its end. */
function send(options: {
  method: string;
  path: string;
  headers?: Record<string, string | number>;
  body?: Buffer | string;
}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${options.path}`, {
      method: options.method,
      headers: { host: "localhost", ...options.headers },
    });
    req.on("response", (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    // The server may answer and close before it reads a body it refuses.
    req.on("error", reject);
    req.end(options.body);
  });
}

/** Nothing of a stack trace or of this machine's paths. */
function expectNoInternals(answer: Answer) {
  expect(answer.body).not.toMatch(
    /\bat [\w.<>]+ \(|node_modules|\.(ts|js):\d+|PayloadTooLarge|SyntaxError|URIError/,
  );
  expect(answer.body).not.toContain(process.cwd());
}

describe("every error answered by the app, in every mode", () => {
  it("refuses TRACE with 405 and the methods allowed", async () => {
    const answer = await send({ method: "TRACE", path: "/home" });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toContain("GET");
    expectNoInternals(answer);
  });

  it("answers a body over a parser's limit with 413 and our page", async () => {
    const body = Buffer.alloc(300 * 1024, "a");
    const answer = await send({
      method: "POST",
      path: "/webhooks/stripe",
      headers: { "content-type": "application/json", "content-length": body.length, accept: "text/html" },
      body,
    });
    expect(answer.status).toBe(413);
    expect(answer.headers["content-type"]).toContain("text/html");
    expect(answer.body).toContain("The request is too large.");
    expectNoInternals(answer);
  });

  it("answers malformed JSON with 400 and a JSON message", async () => {
    const body = '{"label": ';
    const answer = await send({
      method: "POST",
      path: "/dev/test-student",
      headers: {
        "content-type": "application/json",
        "content-length": body.length,
        accept: "application/json",
      },
      body,
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ message: expect.any(String) });
    expectNoInternals(answer);
  });

  it("answers a bad percent-encoding in a path with a 4xx page", async () => {
    for (const target of ["/api/auth/%E0%A4%A", "/api/lists/%E0%A4%A"]) {
      const answer = await send({ method: "GET", path: target, headers: { accept: "text/html" } });
      expect(answer.status, target).toBeGreaterThanOrEqual(400);
      expect(answer.status, target).toBeLessThan(500);
      expectNoInternals(answer);
    }
  });
});
