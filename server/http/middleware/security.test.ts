import type { AddressInfo } from "node:net";
import express, { type Request, type Response } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPageCache, PAGE_CACHE_HEADER } from "./page-cache";
import { privateForSessions, rejectCrossSiteWrites, securityHeaders } from "./security";

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

  it("lets forms post to this site only (decision 0112)", async () => {
    const csp = (await fetch(`${base}/echo`)).headers.get("content-security-policy") ?? "";
    const formAction = csp.split(";").find((directive) => directive.trim().startsWith("form-action"));
    expect(formAction?.trim()).toBe("form-action 'self'");
  });

  it("adds exactly the origins it is given, such as the Google sign-in provider", () => {
    const res = { locals: {} as Record<string, unknown>, headers: new Map<string, string>() };
    const response = {
      locals: res.locals,
      setHeader: (name: string, value: string) => res.headers.set(name.toLowerCase(), value),
    } as unknown as Response;
    securityHeaders({ production: true, dev: false, formActionOrigins: ["https://accounts.google.com"] })(
      {} as Request,
      response,
      () => {},
    );
    expect(res.headers.get("content-security-policy")).toContain(
      "form-action 'self' https://accounts.google.com;",
    );
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

describe("pages rendered for a session (decision 0111)", () => {
  let site = "";
  let stop: () => void = () => {};
  let renders = 0;

  beforeAll(async () => {
    // As server/http/app.ts orders them: the session rule, the visitor page cache, the pages.
    const app = express();
    app.use(securityHeaders({ production: true, dev: false }));
    app.use(privateForSessions());
    app.use(
      createPageCache({
        ttlMs: 60_000,
        maxEntries: 10,
        maxBytes: 64 * 1024,
        cacheablePath: (path) => path === "/home",
        sharedCookies: ["tz"],
        admit: async () => true,
      }).middleware,
    );
    app.get(["/home", "/settings/account", "/settings/account.data"], (req, res) => {
      renders++;
      res.type(req.path.endsWith(".data") ? "text/x-script" : "html").send(`render ${renders}`);
    });
    const server = app.listen(0);
    await new Promise((resolve) => server.once("listening", resolve));
    site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    stop = () => server.close();
  });
  afterAll(() => stop());

  it("sends Cache-Control: private, no-store on every page and data answer of a session", async () => {
    for (const cookie of [
      "better-auth.session_token=abc.def",
      "tz=UTC; __Secure-better-auth.session_token=abc.def",
    ]) {
      for (const path of ["/home", "/settings/account", "/settings/account.data"]) {
        const response = await fetch(`${site}${path}`, { headers: { cookie } });
        expect(response.headers.get("cache-control"), `${path} ${cookie}`).toBe("private, no-store");
        expect(response.headers.get(PAGE_CACHE_HEADER)).toBeNull();
      }
    }
  });

  it("leaves visitors' pages, and the visitor page cache, as they were", async () => {
    const first = await fetch(`${site}/home?visitor=1`);
    const second = await fetch(`${site}/home?visitor=1`);
    expect([first.headers.get(PAGE_CACHE_HEADER), second.headers.get(PAGE_CACHE_HEADER)]).toEqual([
      "miss",
      "hit",
    ]);
    expect(await second.text()).toBe(await first.text());
    expect(second.headers.get("cache-control")).toBeNull();
    const withTimeZone = await fetch(`${site}/settings/account`, { headers: { cookie: "tz=UTC" } });
    expect(withTimeZone.headers.get("cache-control")).toBeNull();
  });
});
