import { readdir } from "node:fs/promises";
import path from "node:path";
import express from "express";
import { type BodyEncoding, preferredEncoding } from "../compress";
import { isPrecompressible, PRECOMPRESSED_SUFFIX } from "./precompressed-assets";

/**
 * Browsers must take a file for what its Content-Type says (decision 0112): these files are served
 * ahead of the app (main.js), so the app's securityHeaders never reach them.
 */
function noSniff(res: express.Response): void {
  res.setHeader("X-Content-Type-Options", "nosniff");
}

/**
 * The assets the build compressed (server/http/middleware/precompressed-assets.ts): each one's name, with
 * the encodings it has copies in, and the copies' own names. Read once: the build's files do not
 * change while it runs.
 */
async function precompressedAssets(assetsDir: string) {
  const names = new Set(await readdir(assetsDir).catch(() => [] as string[]));
  const encodingsOf = new Map<string, Set<BodyEncoding>>();
  const copies = new Set<string>();
  for (const name of names) {
    if (!isPrecompressible(name)) continue;
    const encodings = new Set<BodyEncoding>();
    for (const encoding of Object.keys(PRECOMPRESSED_SUFFIX) as BodyEncoding[]) {
      const copy = `${name}${PRECOMPRESSED_SUFFIX[encoding]}`;
      if (!names.has(copy)) continue;
      encodings.add(encoding);
      copies.add(copy);
    }
    if (encodings.size > 0) encodingsOf.set(name, encodings);
  }
  return { encodingsOf, copies };
}

/**
 * The built client files (`build/client`) as production serves them, ahead of the app: the
 * fingerprinted `/assets/*` cached for a year, and the other public files (favicon, campus
 * logos) for an hour. Those are few and fixed: only their paths reach the file system, rather
 * than every page request paying for a stat() that finds nothing. Every other request passes on.
 * An asset the build compressed is sent as the file of the encoding the browser prefers, with
 * the original's Content-Type; the compression middleware leaves an encoded answer alone.
 */
export async function clientFiles(clientDir: string): Promise<express.Router> {
  const publicStatic = express.static(clientDir, { maxAge: "1h", index: false, setHeaders: noSniff });
  const publicEntries = new Set(
    (await readdir(clientDir, { withFileTypes: true }))
      .filter((entry) => entry.name !== "assets")
      .map((entry) => `/${entry.name}`),
  );
  const assetsDir = path.join(clientDir, "assets");
  const { encodingsOf, copies } = await precompressedAssets(assetsDir);
  // Fingerprinted assets never change: cache them for a year.
  const assetsStatic = express.static(assetsDir, { immutable: true, maxAge: "1y", setHeaders: noSniff });
  const router = express.Router();
  router.use("/assets", (req, res, next) => {
    const name = req.path.slice(1);
    // A copy is sent for its original, never under its own name.
    if (copies.has(name)) return next();
    const stored = encodingsOf.get(name);
    if (!stored || (req.method !== "GET" && req.method !== "HEAD")) return assetsStatic(req, res, next);
    res.vary("Accept-Encoding");
    const encoding = preferredEncoding(req.headers["accept-encoding"], stored);
    if (!encoding) return assetsStatic(req, res, next);
    const originalUrl = req.url;
    res.type(path.extname(name));
    res.setHeader("Content-Encoding", encoding);
    req.url = `/${name}${PRECOMPRESSED_SUFFIX[encoding]}`;
    assetsStatic(req, res, (error?: unknown) => {
      // Once the headers are out, an error (a failed read) is for Express to end the answer with.
      if (res.headersSent) return next(error);
      req.url = originalUrl;
      res.removeHeader("Content-Encoding");
      res.removeHeader("Content-Type");
      if (error) return next(error);
      // The copy went missing since the start: the original, as it is.
      assetsStatic(req, res, next);
    });
  });
  router.use((req, res, next) => {
    const first = `/${req.path.split("/")[1] ?? ""}`;
    if (publicEntries.has(first)) publicStatic(req, res, next);
    else next();
  });
  return router;
}
