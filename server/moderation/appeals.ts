import { and, eq } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import { isUniqueViolation } from "../db/errors";
import { isUuid } from "../db/ids";
import { appeals, moderationItems, strikes } from "../db/schema";
import { announceWaitingItems } from "../staff/waiting";
import { parseInput } from "../validation";
import { AppealError, appealSchema, invalidAppealInput } from "./appeals.shared";
import { APPEAL_MESSAGES, APPEAL_RULES } from "./rules.shared";

/** What filing an appeal reads and writes: the database and the clock, nothing of HTTP. */
export type AppealContext = Pick<AppContext, "db" | "clock">;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Decision 0545: the last moment a strike made at `struckAt` can be appealed. */
export function appealDeadline(struckAt: Date): Date {
  return new Date(struckAt.getTime() + APPEAL_RULES.windowDays * DAY_MS);
}

export interface FiledAppeal {
  id: string;
  strikeId: string;
  itemId: string;
  status: "pending";
  createdAt: Date;
}

/**
 * Decision 0545: the student appeals one of their own strikes. Every rule is the server's: the
 * strike must be theirs (anyone else's id, or a malformed one, is 404 as a missing strike is), not
 * overruled, appealed at most once, within APPEAL_RULES.windowDays of the strike by the clock, in
 * 30 to 2,000 characters of plain text after trimming. A suspended student may appeal: no
 * participation gate applies (docs/product/staff-and-moderation.md 'Standing and appeals').
 *
 * One transaction writes the appeal and its queue item (kind 'appeal', the strike's campus, routed
 * to site admins when the strike's item was) and tells the campus's staff their count changed.
 */
export async function fileAppeal(
  ctx: AppealContext,
  viewer: Pick<Viewer, "id">,
  strikeId: string,
  text: string,
): Promise<FiledAppeal> {
  const input = parseInput(appealSchema, { strikeId, text }, invalidAppealInput);
  const notFound = () => new AppealError("not-found", APPEAL_MESSAGES.strikeNotFound);
  if (!isUuid(input.strikeId)) throw notFound();
  try {
    return await ctx.db.transaction(async (tx) => {
      const [strike] = await tx
        .select({
          id: strikes.id,
          campusId: strikes.campusId,
          createdAt: strikes.createdAt,
          overruledAt: strikes.overruledAt,
          toAdmins: moderationItems.toAdmins,
        })
        .from(strikes)
        .leftJoin(moderationItems, eq(moderationItems.id, strikes.itemId))
        .where(and(eq(strikes.id, input.strikeId), eq(strikes.userId, viewer.id)))
        .limit(1)
        .for("update", { of: strikes });
      if (!strike) throw notFound();
      if (strike.overruledAt) throw new AppealError("overruled", APPEAL_MESSAGES.overruled);
      const now = ctx.clock.now();
      if (now.getTime() > appealDeadline(strike.createdAt).getTime()) {
        throw new AppealError("window-closed", APPEAL_MESSAGES.windowClosed);
      }
      const [earlier] = await tx
        .select({ id: appeals.id })
        .from(appeals)
        .where(eq(appeals.strikeId, strike.id))
        .limit(1);
      if (earlier) throw new AppealError("already-appealed", APPEAL_MESSAGES.alreadyAppealed);
      const [appeal] = await tx
        .insert(appeals)
        .values({
          campusId: strike.campusId,
          strikeId: strike.id,
          userId: viewer.id,
          text: input.text,
          status: "pending",
          createdAt: now,
        })
        .returning({ id: appeals.id });
      if (!appeal) throw new Error("appeal not written");
      const [item] = await tx
        .insert(moderationItems)
        .values({
          campusId: strike.campusId,
          targetKind: "appeal",
          targetId: appeal.id,
          targetUserId: viewer.id,
          state: "open",
          toAdmins: strike.toAdmins ?? false,
          openedAt: now,
        })
        .returning({ id: moderationItems.id });
      if (!item) throw new Error("appeal item not written");
      await announceWaitingItems(tx, strike.campusId);
      return {
        id: appeal.id,
        strikeId: strike.id,
        itemId: item.id,
        status: "pending" as const,
        createdAt: now,
      };
    });
  } catch (error) {
    // Two sends of one form at once: the unique index lets one through, the other is told why.
    if (isUniqueViolation(error, "appeals_strike_unique")) {
      throw new AppealError("already-appealed", APPEAL_MESSAGES.alreadyAppealed);
    }
    throw error;
  }
}
