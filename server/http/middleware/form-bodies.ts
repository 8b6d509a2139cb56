import type { NextFunction, Request, Response } from "express";

/**
 * docs/product/outages-and-errors.md: the app's actions read HTML forms and nothing else. A write with any
 * other body (JSON, plain text, a multipart type without its boundary, no type at
 * all) is refused here with 415 before a byte of it is read, instead of failing
 * inside an action as a 500. better-auth's endpoints and webhooks are mounted
 * ahead of this and read their own formats.
 */
export const UNSUPPORTED_BODY_MESSAGE =
  "This request could not be read: forms are sent as application/x-www-form-urlencoded or multipart/form-data.";

const URLENCODED = /^application\/x-www-form-urlencoded\s*(;|$)/i;
const MULTIPART_WITH_BOUNDARY = /^multipart\/form-data\s*;(.*;)?\s*boundary=("[^"]+"|[^\s;"]+)/i;

export function isFormContentType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  return URLENCODED.test(contentType) || MULTIPART_WITH_BOUNDARY.test(contentType);
}

export function refuseNonFormWrites() {
  return (req: Request, res: Response, next: NextFunction) => {
    const write = req.method !== "GET" && req.method !== "HEAD" && req.method !== "OPTIONS";
    if (write && !isFormContentType(req.headers["content-type"])) {
      res.status(415).set("Cache-Control", "no-store").type("text/plain").send(UNSUPPORTED_BODY_MESSAGE);
      return;
    }
    next();
  };
}

/**
 * Whether a form field holds a NUL character. No field of the app's forms can hold one, and
 * PostgreSQL text cannot store it: the form is refused as a whole (docs/product/outages-and-errors.md), by readForm and
 * by the upload reader alike.
 */
export function formHoldsNul(form: FormData): boolean {
  for (const [, value] of form) {
    if (typeof value === "string" && value.includes("\u0000")) return true;
  }
  return false;
}
