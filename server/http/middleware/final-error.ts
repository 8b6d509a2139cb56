import type { ErrorRequestHandler, Request, Response } from "express";
import { isDatabaseUnavailable } from "../../db/errors";
import { BACK_SOON, BACK_SOON_HEADERS, SOMETHING_WENT_WRONG } from "../../errors.shared";
import type { Logger } from "../../logger";
import { backSoonPage, staticErrorPage } from "../error-pages";

/**
 * Decision 0471: the last handler of every Express app of ours (server/http/app.ts,
 * main.js). Express's own one answers an error with its stack trace, the install path in it,
 * whenever NODE_ENV is not `production`: a TRACE request, a body over a parser's limit, malformed
 * JSON, a bad percent-encoding in a path. This one answers every error the same way in every
 * mode: a client's mistake (a 4xx an Express parser or router gave it) with its status, a database
 * that cannot be reached with 503 and Retry-After (decision 0470), anything else with 500; a page
 * or JSON as the client accepts, in our words only. The stack goes to the log.
 */
export function finalErrorHandler(log: Logger): ErrorRequestHandler {
  return (error: unknown, req: Request, res: Response, next) => {
    const status = errorStatus(error);
    if (status >= 500) log.error({ err: error, method: req.method, path: req.path }, "request failed");
    else log.info({ method: req.method, path: req.path, status }, "request refused");
    // Too late to answer: Express's own handler ends the connection (and writes nothing).
    if (res.headersSent) return next(error);
    const text = statusText(status);
    res.status(status);
    res.setHeader("Cache-Control", "no-store");
    if (status === 503)
      for (const [name, value] of Object.entries(BACK_SOON_HEADERS)) res.setHeader(name, value);
    // An answer to a body not read to its end closes the connection (the rest is never read).
    if (!req.complete) res.setHeader("Connection", "close");
    if (req.accepts(["html", "json"]) === "json") {
      res.json({ message: text.message });
      return;
    }
    res
      .type("html")
      .send(
        status === 503
          ? backSoonPage()
          : staticErrorPage({ title: text.title, message: text.message, action: "home" }),
      );
  };
}

/** A 4xx that Express or a body parser set on its error (`status` or `statusCode`), 503 for an outage, else 500. */
function errorStatus(error: unknown): number {
  if (isDatabaseUnavailable(error)) return 503;
  const { status, statusCode } = (error ?? {}) as { status?: unknown; statusCode?: unknown };
  const given = typeof status === "number" ? status : typeof statusCode === "number" ? statusCode : 500;
  return Number.isInteger(given) && given >= 400 && given < 500 ? given : 500;
}

function statusText(status: number): { title: string; message: string } {
  if (status === 503) return { title: BACK_SOON.title, message: BACK_SOON.message };
  if (status === 413) return { title: "Error 413", message: "The request is too large." };
  if (status >= 400 && status < 500) {
    return { title: `Error ${status}`, message: "This request could not be understood. Please try again." };
  }
  return { title: SOMETHING_WENT_WRONG, message: "An unexpected error occurred. Try again in a moment." };
}
