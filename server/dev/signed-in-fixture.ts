import express from "express";
import { z } from "zod";
import type { Auth } from "../accounts/auth";
import { getViewerFromHeaders, type Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import { isDomainError } from "../errors.shared";
import { testFixturesEnabled } from "./test-student";

/**
 * The frame of the test fixtures that act for the signed-in student (decisions 0215, 0607 and
 * the strike fixture's): mounted only when testFixturesEnabled(config); a body of at most `limit`
 * as JSON; 401 without a session; the handler's answer as 201 JSON. A body the handler's schema
 * refuses (ZodError, RangeError) answers 400 with its words, a product rule's refusal its own
 * status and words, for the failing spec's log; anything else goes to the app's error handler.
 */
export function mountSignedInFixture(
  app: express.Express,
  deps: { ctx: AppContext; auth: Auth },
  path: string,
  limit: string,
  handle: (viewer: Viewer, body: unknown) => Promise<unknown>,
): void {
  if (!testFixturesEnabled(deps.ctx.config)) return;
  app.post(path, express.json({ limit }), async (req, res, next) => {
    try {
      const cookie = req.headers.cookie;
      const viewer = cookie ? await getViewerFromHeaders(deps.ctx, deps.auth, new Headers({ cookie })) : null;
      if (!viewer) {
        res.status(401).json({ message: "Sign in first." });
        return;
      }
      res.status(201).json(await handle(viewer, req.body ?? {}));
    } catch (error) {
      if (error instanceof z.ZodError) res.status(400).json({ message: z.prettifyError(error) });
      else if (error instanceof RangeError) res.status(400).json({ message: error.message });
      else if (isDomainError(error)) res.status(error.status).json({ message: error.message });
      else next(error);
    }
  });
}
