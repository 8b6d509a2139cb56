import { readdir } from "node:fs/promises";
import path from "node:path";
import express from "express";

/**
 * Browsers must take a file for what its Content-Type says (issue 9 §4): these files are served
 * ahead of the app (main.js), so the app's securityHeaders never reach them.
 */
function noSniff(res: express.Response): void {
  res.setHeader("X-Content-Type-Options", "nosniff");
}

/**
 * The built client files (`build/client`) as production serves them, ahead of the app: the
 * fingerprinted `/assets/*` cached for a year, and the other public files (favicon, campus
 * logos) for an hour. Those are few and fixed: only their paths reach the file system, rather
 * than every page request paying for a stat() that finds nothing. Every other request passes on.
 */
export async function clientFiles(clientDir: string): Promise<express.Router> {
  const publicStatic = express.static(clientDir, { maxAge: "1h", index: false, setHeaders: noSniff });
  const publicEntries = new Set(
    (await readdir(clientDir, { withFileTypes: true }))
      .filter((entry) => entry.name !== "assets")
      .map((entry) => `/${entry.name}`),
  );
  const router = express.Router();
  // Fingerprinted assets never change: cache them for a year.
  router.use(
    "/assets",
    express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", setHeaders: noSniff }),
  );
  router.use((req, res, next) => {
    const first = `/${req.path.split("/")[1] ?? ""}`;
    if (publicEntries.has(first)) publicStatic(req, res, next);
    else next();
  });
  return router;
}
