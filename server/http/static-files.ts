import { readdir } from "node:fs/promises";
import path from "node:path";
import express from "express";
import { type BodyEncoding, preferredEncoding } from "./compress";
import { PRECOMPRESSED_SUFFIX } from "./precompressed-assets";

/**
 * Browsers must take a file for what its Content-Type says (issue 9 §4): these files are served
 * ahead of the app (main.js), so the app's securityHeaders never reach them.
 */
function noSniff(res: express.Response): void {
  res.setHeader("X-Content-Type-Options", "nosniff");
}

/**
 * The assets the build compressed (server/http/precompressed-assets.ts): each one's name, with
 * the encodings it has beside it. Read once: the build's files do not change while it runs.
 */
async function precompressedAssets(assetsDir: string): Promise<Map<string, Set<BodyEncoding>>> {
  const names = new Set(await readdir(assetsDir).catch(() => [] as string[]));
  const found = new Map<string, Set<BodyEncoding>>();
  for (const name of names) {
    const encodings = new Set(
      (Object.keys(PRECOMPRESSED_SUFFIX) as BodyEncoding[]).filter((encoding) =>
        names.has(`${name}${PRECOMPRESSED_SUFFIX[encoding]}`),
      ),
    );
    if (encodings.size > 0) found.set(name, encodings);
  }
  return found;
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
  const precompressed = await precompressedAssets(assetsDir);
  // Fingerprinted assets never change: cache them for a year.
  const assetsStatic = express.static(assetsDir, { immutable: true, maxAge: "1y", setHeaders: noSniff });
  const router = express.Router();
  router.use("/assets", (req, res, next) => {
    const encodings = precompressed.get(req.path.slice(1));
    if (!encodings || (req.method !== "GET" && req.method !== "HEAD")) return assetsStatic(req, res, next);
    res.vary("Accept-Encoding");
    const encoding = preferredEncoding(req.headers["accept-encoding"]);
    if (!encoding || !encodings.has(encoding)) return assetsStatic(req, res, next);
    const originalUrl = req.url;
    res.type(path.extname(req.path));
    res.setHeader("Content-Encoding", encoding);
    req.url = `${req.path}${PRECOMPRESSED_SUFFIX[encoding]}`;
    assetsStatic(req, res, (error?: unknown) => {
      // The compressed file went missing: what answers next must not be labelled with its encoding.
      req.url = originalUrl;
      res.removeHeader("Content-Encoding");
      res.removeHeader("Content-Type");
      next(error);
    });
  });
  router.use((req, res, next) => {
    const first = `/${req.path.split("/")[1] ?? ""}`;
    if (publicEntries.has(first)) publicStatic(req, res, next);
    else next();
  });
  return router;
}
