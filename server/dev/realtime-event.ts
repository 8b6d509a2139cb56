import type express from "express";
import { z } from "zod";
import type { Auth } from "../accounts/auth";
import type { AppContext } from "../context";
import { publishUserEvent } from "../realtime/events";
import { mountSignedInFixture } from "./signed-in-fixture";

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
  mountSignedInFixture(app, deps, REALTIME_EVENT_PATH, "2kb", async (viewer, body) => {
    const event = requestSchema.parse(body);
    return { seq: await deps.ctx.db.transaction((tx) => publishUserEvent(tx, viewer.id, event)) };
  });
}
