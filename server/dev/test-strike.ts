import { and, eq } from "drizzle-orm";
import type express from "express";
import { z } from "zod";
import type { Auth } from "../accounts/auth";
import type { AppContext } from "../context";
import { moderationItems, posts, strikes, user } from "../db/schema";
import { REPORT_REASONS } from "../db/schema/reports";
import { INDEFINITELY } from "../moderation/rules.shared";
import { announceCampusPagesChanged } from "../realtime/events";
import { appendModerationLog } from "../staff/moderation-log";
import { mountSignedInFixture } from "./signed-in-fixture";

/**
 * Decision 0548: an end-to-end fixture that gives the signed-in student a strike, as a campus
 * moderator's Remove, Warn, Suspend or Ban leaves it (the strike, its decided item, the log row,
 * the removed post, the suspension), so the browser tests of the standing page and /modlog need no
 * moderator to act first. Like POST /dev/test-student (decision 0155) it exists only outside
 * production with TEST_FIXTURES=1; the staff actions themselves are tested where they are written.
 */
export const TEST_STRIKE_PATH = "/dev/test-strike";

const DAY_MS = 24 * 60 * 60 * 1000;

const requestSchema = z
  .object({
    action: z.enum(["remove", "warn", "suspend", "ban"]).default("remove"),
    /** One of the student's own posts or comments the strike removes; none: the strike is about the member. */
    postId: z.uuid().optional(),
    reasonCode: z.enum(REPORT_REASONS).default("spam"),
    publicReason: z.string().trim().min(1).max(500).default("Posted the same listing five times in an hour."),
    privateNote: z.string().trim().max(1000).nullable().default(null),
    /** A suspension's length; null: until lifted. */
    days: z.number().int().min(1).max(30).nullable().default(3),
  })
  .strict();

async function giveStrike(ctx: AppContext, viewer: { id: string; campusId: string }, input: unknown) {
  const options = requestSchema.parse(input);
  const now = ctx.clock.now();
  const campusId = viewer.campusId;
  const suspendedUntil =
    options.action === "ban" || (options.action === "suspend" && options.days === null)
      ? INDEFINITELY
      : options.action === "suspend" && options.days !== null
        ? new Date(now.getTime() + options.days * DAY_MS)
        : null;
  return ctx.db.transaction(async (tx) => {
    let targetKind: "post" | "comment" | "user" = "user";
    let targetId = viewer.id;
    if (options.postId) {
      const [post] = await tx
        .select({ id: posts.id, parentId: posts.parentId })
        .from(posts)
        .where(and(eq(posts.id, options.postId), eq(posts.authorId, viewer.id)))
        .limit(1);
      if (!post) throw new RangeError("no such post of this student");
      targetKind = post.parentId ? "comment" : "post";
      targetId = post.id;
      if (options.action !== "warn") {
        await tx.update(posts).set({ moderationState: "removed" }).where(eq(posts.id, post.id));
      }
    }
    const [item] = await tx
      .insert(moderationItems)
      .values({
        campusId,
        targetKind,
        targetId,
        targetUserId: viewer.id,
        state: "decided",
        openedAt: now,
        decidedAt: now,
        decision: options.action,
      })
      .onConflictDoUpdate({
        target: [moderationItems.targetKind, moderationItems.targetId],
        set: { state: "decided", decidedAt: now, decision: options.action },
      })
      .returning({ id: moderationItems.id });
    const [strike] = await tx
      .insert(strikes)
      .values({
        campusId,
        userId: viewer.id,
        itemId: item?.id ?? null,
        action: options.action,
        targetKind,
        targetId,
        reasonCode: options.reasonCode,
        publicReason: options.publicReason,
        suspendedUntil,
        createdAt: now,
      })
      .returning({ id: strikes.id });
    if (suspendedUntil) await tx.update(user).set({ suspendedUntil }).where(eq(user.id, viewer.id));
    await appendModerationLog(tx, {
      campusId,
      actorId: null,
      source: "staff",
      actorRole: "campus_moderator",
      action: options.action,
      targetKind,
      targetId,
      targetUserId: viewer.id,
      reasonCode: options.reasonCode,
      publicReason: options.publicReason,
      privateNote: options.privateNote,
      details: {
        itemId: item?.id,
        strikeId: strike?.id,
        ...(suspendedUntil ? { suspendedUntil: suspendedUntil.toISOString() } : {}),
        ...(options.action === "suspend" ? { days: options.days } : {}),
      },
      at: now,
    });
    if (options.postId && options.action !== "warn") await announceCampusPagesChanged(tx, campusId);
    return { strikeId: strike?.id ?? null, itemId: item?.id ?? null };
  });
}

/** Mounts `POST /dev/test-strike` when, and only when, testFixturesEnabled(config). */
export function mountStrikeFixture(app: express.Express, deps: { ctx: AppContext; auth: Auth }): void {
  mountSignedInFixture(app, deps, TEST_STRIKE_PATH, "4kb", (viewer, body) =>
    giveStrike(deps.ctx, viewer, body),
  );
}
