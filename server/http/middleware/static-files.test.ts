import fs, { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import express from "express";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { writePrecompressedAssets } from "./precompressed-assets";
import { clientFiles } from "./static-files";

// The built client files as main.js serves them, ahead of the app and its securityHeaders.

let base = "";
let close: () => void = () => {};
let dir = "";
/** A bundle big enough that the build compresses it. */
const bundle = Array.from({ length: 300 }, (_, i) => `export const value${i} = "item ${i}";`).join("\n");

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "cbs-client-"));
  mkdirSync(path.join(dir, "assets"));
  mkdirSync(path.join(dir, "logos"));
  writeFileSync(path.join(dir, "assets", "root-Ab12.js"), "export {};");
  writeFileSync(path.join(dir, "assets", "app-Cd34.css"), "body{}");
  writeFileSync(path.join(dir, "assets", "entry.client-Ef56.js"), bundle);
  writeFileSync(path.join(dir, "assets", "gone-Gh78.js"), bundle);
  await writePrecompressedAssets(path.join(dir, "assets"), [
    "root-Ab12.js",
    "entry.client-Ef56.js",
    "gone-Gh78.js",
  ]);
  writeFileSync(path.join(dir, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  writeFileSync(path.join(dir, "logos", "ou.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  const app = express();
  app.use(await clientFiles(dir));
  app.use((_req, res) => {
    res.status(404).type("text/plain").send("the app");
  });
  const server = app.listen(0);
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});

afterAll(() => {
  close();
  rmSync(dir, { recursive: true, force: true });
});

describe("client files", () => {
  it("sends nosniff with every asset, the favicon and the campus logos (decision 0112)", async () => {
    for (const [file, type] of [
      ["/assets/root-Ab12.js", "text/javascript"],
      ["/assets/app-Cd34.css", "text/css"],
      ["/favicon.svg", "image/svg+xml"],
      ["/logos/ou.svg", "image/svg+xml"],
    ] as const) {
      const response = await fetch(`${base}${file}`);
      expect(response.status, file).toBe(200);
      expect(response.headers.get("content-type"), file).toContain(type);
      expect(response.headers.get("x-content-type-options"), file).toBe("nosniff");
    }
  });

  it("caches fingerprinted assets for a year, the other files for an hour", async () => {
    expect((await fetch(`${base}/assets/root-Ab12.js`)).headers.get("cache-control")).toBe(
      "public, max-age=31536000, immutable",
    );
    expect((await fetch(`${base}/favicon.svg`)).headers.get("cache-control")).toBe("public, max-age=3600");
  });

  it("passes every other request on to the app", async () => {
    for (const pathname of ["/home", "/assets/missing.js", "/logos/nowhere.svg", "/favicon.svg.map"]) {
      const response = await fetch(`${base}${pathname}`);
      expect(await response.text(), pathname).toBe("the app");
    }
  });

  it("sends the build's compressed copy in the encoding the browser prefers, as the original's type", async () => {
    for (const [accept, encoding] of [
      ["gzip, deflate, br, zstd", "br"],
      ["gzip, deflate", "gzip"],
      ["br;q=0, gzip", "gzip"],
    ] as const) {
      for (const method of ["GET", "HEAD"]) {
        const response = await fetch(`${base}/assets/entry.client-Ef56.js`, {
          method,
          headers: { "accept-encoding": accept },
        });
        expect(response.status, accept).toBe(200);
        expect(response.headers.get("content-encoding"), accept).toBe(encoding);
        expect(response.headers.get("content-type"), accept).toContain("text/javascript");
        expect(response.headers.get("vary"), accept).toContain("Accept-Encoding");
        expect(response.headers.get("cache-control"), accept).toBe("public, max-age=31536000, immutable");
        expect(response.headers.get("x-content-type-options"), accept).toBe("nosniff");
        expect(Number(response.headers.get("content-length")), accept).toBeLessThan(bundle.length / 3);
        // fetch decodes what it was sent: the bytes are the original's.
        if (method === "GET") expect(await response.text(), accept).toBe(bundle);
      }
    }
  });

  it("sends the original to a browser that accepts no encoding, and files the build left alone as they are", async () => {
    const plain = await fetch(`${base}/assets/entry.client-Ef56.js`, {
      headers: { "accept-encoding": "identity" },
    });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toContain("Accept-Encoding");
    expect(await plain.text()).toBe(bundle);
    const small = await fetch(`${base}/assets/root-Ab12.js`, { headers: { "accept-encoding": "br" } });
    expect(small.headers.get("content-encoding")).toBeNull();
    expect(await small.text()).toBe("export {};");
  });

  it("sends the original when the compressed copy has gone since the start", async () => {
    unlinkSync(path.join(dir, "assets", "gone-Gh78.js.br"));
    const response = await fetch(`${base}/assets/gone-Gh78.js`, { headers: { "accept-encoding": "br" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(response.headers.get("content-type")).toContain("text/javascript");
    expect(await response.text()).toBe(bundle);
  });

  it("does not send the copies under their own names", async () => {
    for (const copy of ["entry.client-Ef56.js.br", "entry.client-Ef56.js.gz"]) {
      expect(await (await fetch(`${base}/assets/${copy}`)).text(), copy).toBe("the app");
    }
  });

  it("takes `*` for any encoding the browser does not refuse", async () => {
    for (const [accept, encoding] of [
      ["*", "br"],
      ["br;q=0, *", "gzip"],
      ["br;q=0, gzip;q=0, *", null],
    ] as const) {
      const response = await fetch(`${base}/assets/entry.client-Ef56.js`, {
        headers: { "accept-encoding": accept },
      });
      expect(response.headers.get("content-encoding"), accept).toBe(encoding);
      expect(await response.text(), accept).toBe(bundle);
    }
  });

  it("keeps serving when reading a compressed copy fails half-way", async () => {
    const createReadStream = fs.createReadStream;
    const spy = vi.spyOn(fs, "createReadStream").mockImplementation(((file: string, options: unknown) => {
      if (!String(file).endsWith(".br")) return createReadStream.call(fs, file, options as never);
      let reads = 0;
      return new Readable({
        read() {
          if (reads++ === 0) this.push(Buffer.alloc(64, 1));
          else
            process.nextTick(() =>
              this.destroy(Object.assign(new Error("EIO: i/o error, read"), { code: "EIO" })),
            );
        },
      });
    }) as typeof fs.createReadStream);
    try {
      const broken = await fetch(`${base}/assets/entry.client-Ef56.js`, {
        headers: { "accept-encoding": "br" },
      });
      await broken.arrayBuffer().catch(() => null);
    } finally {
      spy.mockRestore();
    }
    const next = await fetch(`${base}/assets/entry.client-Ef56.js`, { headers: { "accept-encoding": "br" } });
    expect(next.status).toBe(200);
    expect(await next.text()).toBe(bundle);
  });
});
