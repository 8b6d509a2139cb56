import type { AddressInfo } from "node:net";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createPageCache, PAGE_CACHE_HEADER } from "./page-cache";
import { securityHeaders } from "./security";

// The cache in front of a stand-in app that renders a page with its nonce and counts renders,
// behind compression as in main.js.
let port = 0;
let close: () => void = () => {};
let renders = 0;
let clock = 0;
let admitted = true;
/** While set, /post/slow waits for it: a test finishes a write while that page renders. */
let heldRender: Promise<void> | null = null;

const cache = createPageCache({
  ttlMs: 5000,
  maxEntries: 3,
  maxBytes: 64 * 1024,
  cacheablePath: (path) => path === "/home" || path.startsWith("/post/"),
  sharedCookies: ["tz"],
  admit: async () => admitted,
  // The IPv6 loopback stands for a second host of the IPv4 loopback's campus.
  campusOf: (host) => host.replace("[::1]", "127.0.0.1"),
  onWrite: (campus) => writesAnnounced.push(campus),
  now: () => clock,
});
/** What onWrite announced (for the other processes). */
const writesAnnounced: string[] = [];

beforeAll(async () => {
  const app = express();
  app.use(compression());
  app.use(securityHeaders({ production: true, dev: false }));
  app.use(cache.middleware);
  app.get("/post/big", (_req, res) => {
    renders++;
    res.type("html").send("x".repeat(100 * 1024));
  });
  app.get("/post/cookie", (_req, res) => {
    renders++;
    res.cookie("cbs_toast", "1").type("html").send("<p>with a cookie</p>");
  });
  app.get("/post/missing", (_req, res) => {
    renders++;
    res.status(404).type("html").send("<p>gone</p>");
  });
  app.get("/post/slow", async (_req, res) => {
    renders++;
    const before = `<p>read before the write</p>`;
    await heldRender;
    res.type("html").send(before);
  });
  app.get(["/home", "/post/:id", "/settings"], (req, res) => {
    renders++;
    const nonce = String(res.locals.cspNonce);
    // Written in pieces, as a streamed render is.
    res.type("html");
    res.write(`<html><script nonce="${nonce}">1</script>`);
    res.end(`<p>render ${renders} of ${req.originalUrl}</p><script nonce="${nonce}">2</script></html>`);
  });
  app.post("/write", (_req, res) => {
    res.send("written");
  });
  const server = app.listen(0);
  await new Promise((resolve) => server.once("listening", resolve));
  port = (server.address() as AddressInfo).port;
  close = () => server.close();
});
afterAll(() => close());

beforeEach(() => {
  clock += 60_000;
  admitted = true;
});

function get(path: string, init: RequestInit = {}, host = "127.0.0.1") {
  return fetch(`http://${host}:${port}${path}`, init);
}

async function page(path: string, init: RequestInit = {}, host = "127.0.0.1") {
  const response = await get(path, init, host);
  const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1] ?? "";
  return { response, nonce, body: await response.text(), state: response.headers.get(PAGE_CACHE_HEADER) };
}

describe("page cache", () => {
  it("renders a visitor's page once and serves it again as it was, with the policy its scripts need", async () => {
    const first = await page("/home?visit=1");
    const second = await page("/home?visit=1");
    expect(first.state).toBe("miss");
    expect(second.state).toBe("hit");
    expect(second.body).toBe(first.body);
    expect(second.response.headers.get("content-security-policy")).toBe(
      first.response.headers.get("content-security-policy"),
    );
    // The nonce the hit's policy names is the one its scripts carry.
    expect(second.body.split(`nonce="${second.nonce}"`)).toHaveLength(3);
    expect(second.response.headers.get("content-type")).toContain("text/html");
  });

  it("sends a hit compressed as the client accepts (brotli, else gzip), compressed once", async () => {
    const plain = await page("/home?visit=10");
    for (const [accept, encoding] of [
      ["gzip, deflate, br", "br"],
      ["gzip", "gzip"],
      ["br;q=0, gzip", "gzip"],
      ["identity", null],
    ] as const) {
      const hit = await page("/home?visit=10", { headers: { "accept-encoding": accept } });
      expect(hit.state).toBe("hit");
      expect(hit.response.headers.get("content-encoding")).toBe(encoding);
      expect(hit.response.headers.get("vary")).toContain("Accept-Encoding");
      expect(hit.body).toBe(plain.body);
    }
  });

  it("keeps each address and time zone apart, and sends compressed hits", async () => {
    const before = renders;
    await page("/home?visit=2");
    await page("/home?visit=3");
    await page("/home?visit=2", { headers: { cookie: "tz=America%2FChicago" } });
    const hit = await page("/home?visit=2", {
      headers: { cookie: "tz=America%2FChicago", "accept-encoding": "gzip" },
    });
    expect(renders - before).toBe(3);
    expect(hit.state).toBe("hit");
    expect(hit.body).toContain("of /home?visit=2");
  });

  it("never serves or stores the page of someone with a session or other cookies", async () => {
    const before = renders;
    for (const cookie of ["better-auth.session_token=abc", "tz=UTC; cbs_toast=x", "cbs_once_redirects=1"]) {
      const first = await page("/home?visit=4", { headers: { cookie } });
      const second = await page("/home?visit=4", { headers: { cookie } });
      expect([first.state, second.state]).toEqual([null, null]);
    }
    expect(renders - before).toBe(6);
    expect((await page("/home?visit=4")).state).toBe("miss");
  });

  it("stores neither other paths, nor errors, nor responses that set cookies, nor large pages", async () => {
    const before = renders;
    for (const path of ["/settings", "/post/missing", "/post/cookie", "/post/big"]) {
      await get(path).then((response) => response.text());
      await get(path).then((response) => response.text());
    }
    expect(renders - before).toBe(8);
  });

  it("serves nothing after the time to live", async () => {
    await page("/home?visit=5");
    clock += 4999;
    expect((await page("/home?visit=5")).state).toBe("hit");
    clock += 1;
    expect((await page("/home?visit=5")).state).toBe("miss");
  });

  it("asks admit for every hit (the geo gate)", async () => {
    await page("/home?visit=6");
    admitted = false;
    const refused = await page("/home?visit=6");
    expect(refused.body).toContain("render");
    expect(refused.state).toBe("miss");
    admitted = true;
  });

  it("drops a host's pages when a write on it finishes, and only that host's", async () => {
    await page("/home?visit=7");
    await page("/home?visit=7", {}, "localhost");
    await get("/write", { method: "POST" }).then((response) => response.text());
    expect((await page("/home?visit=7")).state).toBe("miss");
    expect((await page("/home?visit=7", {}, "localhost")).state).toBe("hit");
  });

  it("does not store a page whose render began before a write on its host finished", async () => {
    let release = () => {};
    heldRender = new Promise<void>((resolve) => {
      release = resolve;
    });
    const rendering = page("/post/slow");
    await new Promise((resolve) => setTimeout(resolve, 50));
    await get("/write", { method: "POST" }).then((response) => response.text());
    release();
    expect((await rendering).state).toBe("miss");
    heldRender = null;
    expect((await page("/post/slow")).state).toBe("miss");
    expect((await page("/post/slow")).state).toBe("hit");
  });

  it("drops every host's pages of the campus a write was on, and announces the write with its campus", async () => {
    writesAnnounced.length = 0;
    await page("/home?visit=12");
    await page("/home?visit=12", {}, "localhost");
    await get("/write", { method: "POST" }, "[::1]").then((response) => response.text());
    expect(writesAnnounced).toEqual([`127.0.0.1:${port}`]);
    expect((await page("/home?visit=12")).state).toBe("miss");
    expect((await page("/home?visit=12", {}, "localhost")).state).toBe("hit");
  });

  it("drops a campus's pages when another process's write is reported (invalidateCampus), even one rendering", async () => {
    await page("/home?visit=13");
    await page("/home?visit=13", {}, "localhost");
    cache.invalidateCampus(`127.0.0.1:${port}`);
    expect((await page("/home?visit=13")).state).toBe("miss");
    expect((await page("/home?visit=13", {}, "localhost")).state).toBe("hit");

    let release = () => {};
    heldRender = new Promise<void>((resolve) => {
      release = resolve;
    });
    const rendering = page("/post/slow?visit=13");
    await new Promise((resolve) => setTimeout(resolve, 50));
    cache.invalidateCampus(`127.0.0.1:${port}`);
    release();
    await rendering;
    heldRender = null;
    // Rendered before the remote write: not stored.
    expect((await page("/post/slow?visit=13")).state).toBe("miss");
    expect((await page("/post/slow?visit=13")).state).toBe("hit");
  });

  it("drops every page on dropAll, and stores no page rendering meanwhile, though its campus held none", async () => {
    await page("/home?visit=14");
    await page("/home?visit=14", {}, "localhost");
    let release = () => {};
    heldRender = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A campus of its own (another loopback address) with no page stored yet.
    const rendering = page("/post/slow?visit=14", {}, "127.0.0.2");
    await new Promise((resolve) => setTimeout(resolve, 50));
    cache.dropAll();
    release();
    await rendering;
    heldRender = null;
    expect((await page("/home?visit=14")).state).toBe("miss");
    expect((await page("/home?visit=14", {}, "localhost")).state).toBe("miss");
    // Rendered across the change: not stored.
    expect((await page("/post/slow?visit=14", {}, "127.0.0.2")).state).toBe("miss");
    expect((await page("/post/slow?visit=14", {}, "127.0.0.2")).state).toBe("hit");
  });

  it("holds at most maxEntries pages, dropping the oldest", async () => {
    for (const visit of ["a", "b", "c", "d"]) await page(`/home?visit=9${visit}`);
    expect(cache.size).toBeLessThanOrEqual(3);
    expect((await page("/home?visit=9d")).state).toBe("hit");
    expect((await page("/home?visit=9a")).state).toBe("miss");
  });
});
