import type { NextFunction, Request, Response } from "express";
import { MAX_IMAGE_BYTES } from "../../media/limits.shared";
import { MAX_POST_FILES, MAX_POST_IMAGE_BYTES, MAX_POST_VIDEO_BYTES } from "../../posts/schemas";
import type { UploadFormLimits } from "../../uploads/upload-form";

// Request body caps (decision 0120): no request body is larger than
// what the rules allow, and no body is read by a request that is refused anyway.

/** Any form or JSON body other than an upload: far above the largest post text (200,000 characters). */
export const MAX_FORM_BODY_BYTES = 1024 * 1024;

/**
 * The composer (decision 0082 'Uploads size'): ten files at the largest per-file cap (a 100 MB
 * video) plus room for the multipart framing and the text; each file at most that cap.
 */
export const COMPOSER_FORM_LIMITS: UploadFormLimits = {
  maxBodyBytes: MAX_POST_FILES * Math.max(MAX_POST_VIDEO_BYTES, MAX_POST_IMAGE_BYTES) + MAX_FORM_BODY_BYTES,
  maxFileBytes: Math.max(MAX_POST_VIDEO_BYTES, MAX_POST_IMAGE_BYTES),
  maxFieldBytes: MAX_FORM_BODY_BYTES,
  // Ten files and the few fields, with room for a form that picked more files than allowed, so it
  // is told 'Please choose up to 10 photos.' rather than refused as broken.
  maxParts: 64,
};

/** The profile photo forms (decision 0050): one 10 MB photo and the small fields of the same forms. */
export const PROFILE_FORM_LIMITS: UploadFormLimits = {
  maxBodyBytes: MAX_IMAGE_BYTES + 64 * 1024,
  maxFileBytes: MAX_IMAGE_BYTES,
  maxFieldBytes: 64 * 1024,
  maxParts: 16,
};

/** A chat message (spec 2 §5: one photo): one photo at the post photo cap and the small fields. */
export const CHAT_FORM_LIMITS: UploadFormLimits = {
  maxBodyBytes: MAX_POST_IMAGE_BYTES + 64 * 1024,
  maxFileBytes: MAX_POST_IMAGE_BYTES,
  maxFieldBytes: 64 * 1024,
  maxParts: 16,
};

export interface UploadRoute {
  /** Matches the request path, React Router's data URL (`….data`) included. */
  pattern: RegExp;
  limits: UploadFormLimits;
}

/**
 * The actions that take files, and so read their own bodies within their own caps
 * (app/routes/posts/composer-action.server.ts, app/routes/profile/profile-action.server.ts).
 * Route matching in React Router ignores case and a trailing slash; so do these.
 */
export const UPLOAD_ROUTES: readonly UploadRoute[] = [
  { pattern: /^\/create\/(post|comment\/[^/]+)(\.data)?\/?$/i, limits: COMPOSER_FORM_LIMITS },
  { pattern: /^\/profile\/(set-up|edit)(\.data)?\/?$/i, limits: PROFILE_FORM_LIMITS },
  // The chat's composer (/messages/{chatId}, /messages/new, /create/message).
  { pattern: /^\/(messages\/[^/]+|create\/message)(\.data)?\/?$/i, limits: CHAT_FORM_LIMITS },
];

function refuse(res: Response, status: number, message: string) {
  res.status(status).type("text/plain").send(message);
}

/**
 * Mounted before everything that may read a body. A declared body over its route's
 * cap is answered 413 before a byte of it is read. A body without a declared length
 * (chunked) is accepted only by the upload actions, which count it as it arrives;
 * elsewhere it is answered 411 (browsers always declare the length of what they post).
 *
 * An answer sent before its request's body was read whole closes the connection:
 * the unread rest is never read, and the connection cannot carry another request.
 */
export function limitRequestBodies(
  options: { maxBytes: number; uploads: readonly UploadRoute[] } = {
    maxBytes: MAX_FORM_BODY_BYTES,
    uploads: UPLOAD_ROUTES,
  },
) {
  return (req: Request, res: Response, next: NextFunction) => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: Parameters<Response["writeHead"]>) {
      if (!req.complete) this.shouldKeepAlive = false;
      return writeHead.apply(this, args);
    } as Response["writeHead"];

    const declared = req.headers["content-length"];
    const chunked = req.headers["transfer-encoding"] !== undefined;
    if (declared === undefined && !chunked) {
      next();
      return;
    }
    const upload = options.uploads.find((route) => route.pattern.test(req.path));
    const cap = upload?.limits.maxBodyBytes ?? options.maxBytes;
    if (declared !== undefined && Number(declared) > cap) {
      refuse(res, 413, "The request is too large.");
      return;
    }
    if (declared === undefined && !upload) {
      refuse(res, 411, "The request must declare its length.");
      return;
    }
    next();
  };
}
