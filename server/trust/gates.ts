import { sql } from "drizzle-orm";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { DomainError } from "../errors.shared";
import { rowsOf } from "../realtime/backlog";
import {
  ACTIVE_PRICED_LISTINGS,
  CONVERSATIONS_PER_DAY,
  conversationLimitMessage,
  pricedListingLimitMessage,
} from "./levels.shared";
import { recountTrustLevel } from "./recount";

/**
 * Decision 0661: the trust levels' gates on what the spec does not describe and abuse depends on:
 * new conversations a day and active priced listings. Each recounts the level first (one statement,
 * decision 0660) and reads one index range bounded by the limit; each refusal says what lifts it
 * and links to the student's level in settings.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** Where every refusal points: the student's level and what lifts it. */
export const TRUST_PAGE_LINK = { to: "/settings/account/trust", label: "Your trust level" } as const;

export type TrustErrorCode = "conversation-limit" | "listing-limit";

export class TrustError extends DomainError<TrustErrorCode> {
  constructor(code: TrustErrorCode, message: string) {
    super(code, message, {
      // A day's conversations come back by themselves (429); a listing limit waits on the student (403).
      status: code === "conversation-limit" ? 429 : 403,
      link: TRUST_PAGE_LINK,
    });
    this.name = "TrustError";
  }
}

/**
 * Decision 0661: called in the transaction that just inserted a new conversation (under the
 * sender's row lock), so the count includes it: over the level's number in a rolling 24 hours by
 * the clock refuses, and the transaction rolls the chat back. One range of
 * `chats_from_user_created_idx`, at most limit + 1 rows.
 */
export async function assertWithinConversationLimit(
  tx: Queryable,
  ctx: Pick<AppContext, "clock">,
  senderId: string,
): Promise<void> {
  const level = await recountTrustLevel(tx, ctx, senderId);
  const limit = CONVERSATIONS_PER_DAY[level];
  const since = new Date(ctx.clock.now().getTime() - DAY_MS);
  const [row] = rowsOf<{ started: number | string }>(
    await tx.execute(sql`
      select count(*) as started from (
        select 1 from chats
        where from_user_id = ${senderId} and created_at > ${since.toISOString()}::timestamptz
        limit ${limit + 1}) c`),
  );
  if (Number(row?.started ?? 0) > limit) {
    throw new TrustError("conversation-limit", conversationLimitMessage(level));
  }
}

/**
 * Decision 0661: a new listing for sale with a price above Free, while the author already has the level's
 * number of them not sold (not removed by staff), is refused. Free and unpriced posts are never
 * counted. One range of `posts_author_idx`, at most `limit` rows.
 */
export async function assertWithinPricedListingLimit(
  tx: Queryable,
  ctx: Pick<AppContext, "clock">,
  authorId: string,
): Promise<void> {
  const level = await recountTrustLevel(tx, ctx, authorId);
  const limit = ACTIVE_PRICED_LISTINGS[level];
  const [row] = rowsOf<{ active: number | string }>(
    await tx.execute(sql`
      select count(*) as active from (
        select 1 from posts
        where author_id = ${authorId} and parent_id is null and listing_kind = 'selling' and price_cents > 0
          and listing_status <> 'sold' and moderation_state is distinct from 'removed'
        limit ${limit}) p`),
  );
  if (Number(row?.active ?? 0) >= limit) {
    throw new TrustError("listing-limit", pricedListingLimitMessage(level));
  }
}
