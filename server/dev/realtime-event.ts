import express from "express";
import { z } from "zod";
import type { Auth } from "../accounts/auth";
import { getViewerFromHeaders } from "../accounts/viewer";
import type { AppContext } from "../context";
import { publishUserEvent } from "../realtime/events";
import { testFixturesEnabled } from "./test-student";

/**
 * Decision 0215: an end-to-end fixture that publishes one event to the signed-in viewer's own
 * stream, so the browser tests of the realtime layer need no chat or notification to exist. Like
 * POST /dev/test-student (decision 0155) it exists only outside production with TEST_FIXTURES=1.
 */
export const REALTIME_EVENT_PATH = "/dev/realtime-event";

const requestSchema = z
  .object({
    type: z
      .string()
      .regex(/^[a-z][a-z0-9-]{0,39}$/)
      .default("test"),
    data: z.record(z.string(), z.union([z.string().max(200), z.number()])).default({}),
  })
  .strict();

export function mountRealtimeFixture(app: express.Express, deps: { ctx: AppContext; auth: Auth }): void {
  if (!testFixturesEnabled(deps.ctx.config)) return;
  app.post(REALTIME_EVENT_PATH, express.json({ limit: "2kb" }), async (req, res, next) => {
    try {
      const cookie = req.headers.cookie;
      const viewer = cookie ? await getViewerFromHeaders(deps.ctx, deps.auth, new Headers({ cookie })) : null;
      if (!viewer) {
        res.status(401).json({ message: "Sign in first." });
        return;
      }
      const parsed = requestSchema.safeParse(req.body ?? {});
      if (!parsed.success) {
        res.status(400).json({ message: z.prettifyError(parsed.error) });
        return;
      }
      const seq = await deps.ctx.db.transaction((tx) => publishUserEvent(tx, viewer.id, parsed.data));
      res.status(201).json({ seq });
    } catch (error) {
      next(error);
    }
  });
}
