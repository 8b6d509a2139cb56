import type { NextFunction, Request, Response } from "express";

/**
 * Far deeper than any page's address (the deepest, /post/{id}/boost/success, has 4 segments), so
 * no link a person follows is refused.
 */
export const MAX_PAGE_PATH_SEGMENTS = 12;

/**
 * A page's address with more segments than any page has is an unknown page, answered before
 * React Router sees it (decision 0400). React Router 7.18.4 matches every ancestor of a rendered
 * page's path against every route when it writes the page's route manifest, so its work grows
 * with the square of the depth: one request for `/a/a/…` 7,000 segments deep held a process for
 * four seconds. Documents are sent to the not-found page (a fixed address, never one built from
 * the request); data requests (`.data`) and other methods get 404.
 */
export function refuseDeepPaths(maxSegments: number = MAX_PAGE_PATH_SEGMENTS) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (segmentCount(req.path, maxSegments) <= maxSegments) {
      next();
      return;
    }
    res.set("Cache-Control", "no-store");
    if ((req.method === "GET" || req.method === "HEAD") && !req.path.endsWith(".data")) {
      res.redirect(302, "/404");
      return;
    }
    res.status(404).type("text/plain").send("This page doesn't exist.");
  };
}

/** Segments of a path, counted up to one past `limit` (the count stops being needed there). */
function segmentCount(path: string, limit: number): number {
  let count = 0;
  for (let at = path.indexOf("/"); at !== -1 && count <= limit; at = path.indexOf("/", at + 1)) {
    if (at + 1 < path.length && path[at + 1] !== "/") count += 1;
  }
  return count;
}
