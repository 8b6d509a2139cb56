import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { NextFunction, Request, Response } from "express";
import type { Auth } from "../../accounts/auth";
import { getViewerFromHeaders } from "../../accounts/viewer";
import { isMessagePhotoKey, readableMessagePhotoKey } from "../../chats/content";
import type { AppContext } from "../../context";
import {
  type ByteRange,
  MEDIA_URL_PREFIX,
  type MediaStorage,
  RangeNotSatisfiable,
} from "../../media/storage";

/**
 * Serves stored media at MEDIA_URL_PREFIX from whichever store holds it (local disk or an
 * S3-compatible bucket; decision 0292), the same way for both:
 * - the key is the path after the prefix and must pass the store's own key check (keyOf):
 *   anything else is a 404, so no request names a file outside the store;
 * - a key never names other content (decision 0050), so browsers keep the answer a year;
 * - chat photos are not served here (decision 0463): serveMessagePhotos does, to
 *   the chat's members only;
 * - one byte range (`Range: bytes=…`) is answered 206, which video players need to seek;
 *   several ranges, or a Range with If-Range, get the whole object (RFC 9110 allows it);
 * - the type is the one the object was stored with, and never sniffed (nosniff).
 */
export function serveMediaFiles(storage: MediaStorage) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      notFound(res);
      return;
    }
    const key = storage.keyOf(`${MEDIA_URL_PREFIX}${req.path}`);
    if (!key || isMessagePhotoKey(key)) {
      notFound(res);
      return;
    }
    await sendStoredObject(req, res, next, storage, key, "public, max-age=31536000, immutable");
  };
}

/**
 * Decision 0463: chat photos at MESSAGE_PHOTO_URL_PREFIX, to the two members of the
 * chat only, on their campus's host; everyone else gets the same 404 as for no photo at all.
 * `private`: no shared cache keeps them; the browser may, a day.
 */
export function serveMessagePhotos(deps: {
  ctx: AppContext;
  auth: Auth;
  storage: MediaStorage;
  campusOf: (host: string | undefined) => string;
}) {
  const { ctx, auth, storage, campusOf } = deps;
  return async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      notFound(res);
      return;
    }
    try {
      const cookie = req.headers.cookie;
      const viewer = cookie ? await getViewerFromHeaders(ctx, auth, new Headers({ cookie })) : null;
      const key = await readableMessagePhotoKey(ctx, viewer, campusOf(req.headers.host), req.path);
      if (!key) {
        notFound(res);
        return;
      }
      // Whoever asks decides the answer: no cache may hand it to another person.
      res.setHeader("Vary", "Cookie");
      await sendStoredObject(req, res, next, storage, key, "private, max-age=86400");
    } catch (error) {
      next(error);
    }
  };
}

/** One stored object as the answer: its type, validator, one byte range, and the given caching. */
async function sendStoredObject(
  req: Request,
  res: Response,
  next: NextFunction,
  storage: MediaStorage,
  key: string,
  cacheControl: string,
): Promise<void> {
  const range = req.headers["if-range"] ? null : parseRange(req.headers.range);
  try {
    const object = await storage.get(key, range ?? undefined);
    if (!object) {
      notFound(res);
      return;
    }
    res.setHeader("Cache-Control", cacheControl);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Accept-Ranges", "bytes");
    if (object.etag) res.setHeader("ETag", object.etag);
    if (object.etag && req.headers["if-none-match"] === object.etag) {
      await object.body.cancel();
      res.status(304).end();
      return;
    }
    res.setHeader("Content-Type", object.contentType);
    if (object.range) {
      res.status(206);
      res.setHeader("Content-Range", `bytes ${object.range.start}-${object.range.end}/${object.size}`);
      res.setHeader("Content-Length", object.range.end - object.range.start + 1);
    } else {
      res.status(200);
      res.setHeader("Content-Length", object.size);
    }
    if (req.method === "HEAD") {
      await object.body.cancel();
      res.end();
      return;
    }
    // A reader who goes away stops the read (from disk, or the bucket's answer).
    await pipeline(Readable.fromWeb(object.body as import("node:stream/web").ReadableStream), res);
  } catch (error) {
    if (error instanceof RangeNotSatisfiable) {
      res.status(416).setHeader("Content-Range", `bytes */${error.size}`).end();
      return;
    }
    if (res.headersSent) {
      // Half sent: the reader sees a cut-off answer, not a wrong one.
      res.destroy();
      return;
    }
    next(error);
  }
}

function notFound(res: Response) {
  res.status(404).type("text/plain").send("Not Found");
}

/** One `bytes=` range, or null for none, several, or a malformed one (then the whole object is sent). */
export function parseRange(header: string | undefined): ByteRange | null {
  if (!header) return null;
  const match = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header.trim());
  if (!match) return null;
  const [, from, to] = match;
  if (from === "" && to === "") return null;
  if (from === "") return { suffix: Number(to) };
  const start = Number(from);
  if (to === "") return { start };
  const end = Number(to);
  return end < start ? null : { start, end };
}
