import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rejectCrossSiteWrites, securityHeaders } from "./security";

let base = "";
let close: () => void = () => {};

beforeAll(async () => {
  const app = express();
  app.use(securityHeaders({ production: true, dev: false }));
  app.use(rejectCrossSiteWrites());
  app.all("/echo", (_req, res) => {
    res.send(String(res.locals.cspNonce));
  });
  const server = app.listen(0);
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

describe("security headers", () => {
  it("sends a fresh script nonce in the CSP of every response", async () => {
    const first = await fetch(`${base}/echo`);
    const nonce = await first.text();
    const csp = first.headers.get("content-security-policy") ?? "";
    expect(csp).toContain(`script-src 'self' 'nonce-${nonce}'`);
    expect(csp).toContain("frame-ancestors 'none'");
    const scriptSrc = csp.split(";").find((directive) => directive.trim().startsWith("script-src")) ?? "";
    expect(scriptSrc).not.toContain("unsafe-inline");
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(first.headers.get("strict-transport-security")).toContain("max-age=");
    const second = await fetch(`${base}/echo`);
    expect(await second.text()).not.toBe(nonce);
  });

  it("refuses form posts from other sites and keeps same-site ones", async () => {
    const cross = await fetch(`${base}/echo`, {
      method: "POST",
      headers: { "sec-fetch-site": "cross-site" },
    });
    expect(cross.status).toBe(403);
    const same = await fetch(`${base}/echo`, {
      method: "POST",
      headers: { "sec-fetch-site": "same-origin" },
    });
    expect(same.status).toBe(200);
    const webhook = await fetch(`${base}/echo`, { method: "POST" });
    expect(webhook.status).toBe(200);
    const link = await fetch(`${base}/echo`, { headers: { "sec-fetch-site": "cross-site" } });
    expect(link.status).toBe(200);
  });
});
