import { and, eq, sql } from "drizzle-orm";
import { CHAT_EVENT_TYPE } from "../chats/chat-events";
import type { AppContext } from "../context";
import type { Tx } from "../db/client";
import { deals, offers } from "../db/schema";
import { notify, notifyAll } from "../notifications/notify";
import { userEventCtes } from "../realtime/events";
import { SYSTEM_LINES, type SystemLineEvent } from "./offer-rules.shared";
import { recountReputation } from "./reputation";
import { appendTradeMessage } from "./trade-chat";

/**
 * What ends a listing's open offers and its deal, in the caller's transaction, under the
 * listing's row lock (lockPost) that every writer of the trade takes first (decision 0603).
 */

export interface ListingRef {
  id: string;
  campusId: string;
  authorId: string;
}

/**
 * Decision 0602: every pending offer of the listing (but `exceptOfferId`) becomes 'closed' ('No
 * longer available'), with a system line in its chat and a notice to its buyer. `why` picks the
 * words: another buyer's deal ('offer-closed') or the listing changed, was sold, hidden or
 * deleted ('listing-closed'). When the listing is about to be deleted its offers go with it, so
 * the notice names the chat only (a notice naming the offer would go too).
 */
export async function closePendingOffers(
  ctx: AppContext,
  tx: Tx,
  listing: ListingRef,
  options: { why: "offer-closed" | "listing-closed"; exceptOfferId?: string; listingDeleted?: boolean },
): Promise<number> {
  const now = ctx.clock.now();
  const closed = await tx
    .update(offers)
    .set({ state: "closed", version: sql`${offers.version} + 1`, decidedAt: now })
    .where(
      and(
        eq(offers.postId, listing.id),
        eq(offers.state, "pending"),
        options.exceptOfferId ? sql`${offers.id} <> ${options.exceptOfferId}::uuid` : undefined,
      ),
    )
    .returning({ id: offers.id, chatId: offers.chatId, buyerId: offers.buyerId });
  if (closed.length === 0) return 0;
  await appendSystemLines(
    tx,
    listing.authorId,
    closed.map((offer) => ({ chatId: offer.chatId, to: offer.buyerId })),
    options.why,
    now,
  );
  // One statement for every buyer's notice (decision 0606: the accept's time is the winner's).
  await notifyAll(
    tx,
    ctx,
    closed
      .sort((a, b) => a.buyerId.localeCompare(b.buyerId))
      .map((offer) => ({
        type: "offer" as const,
        event: options.why === "offer-closed" ? ("closed" as const) : ("voided" as const),
        to: offer.buyerId,
        actorId: listing.authorId,
        campusId: listing.campusId,
        postId: options.listingDeleted ? null : listing.id,
        chatId: offer.chatId,
        offerId: options.listingDeleted ? null : offer.id,
      })),
  );
  return closed.length;
}

/**
 * Decision 0603: the same system line in many chats at once (closing a listing's offers), as
 * appendMessage would add each (numbered under the chat's row, the sender's side read, the other's
 * unread) but in one statement, and one chat event per person, so an accept that closes 49 offers
 * stays a few round trips.
 */
async function appendSystemLines(
  tx: Tx,
  senderId: string,
  lines: readonly { chatId: string; to: string }[],
  event: SystemLineEvent,
  now: Date,
): Promise<void> {
  const text = SYSTEM_LINES[event];
  const chatIds = [...new Set(lines.map((line) => line.chatId))].sort();
  const at = now.toISOString();
  await tx.execute(sql`
    with bumped as (
      update chats set last_seq = last_seq + 1, last_message = ${text}, last_message_id = gen_random_uuid(),
        last_modified = ${at}::timestamptz
      where id in (select unnest(${`{${chatIds.join(",")}}`}::uuid[]))
      returning id, campus_id, last_seq, last_message_id
    ),
    inserted as (
      insert into chat_messages (id, chat_id, campus_id, sender_id, seq, text, system_event, created_at)
      select last_message_id, id, campus_id, ${senderId}, last_seq, ${text}, ${event}, ${at}::timestamptz from bumped
      returning chat_id
    )
    update chat_members m set last_modified = ${at}::timestamptz, unread = m.user_id <> ${senderId},
      last_read_seq = case when m.user_id = ${senderId} then b.last_seq else m.last_read_seq end
    from bumped b where m.chat_id = b.id`);
  // Decision 0210: ids only; one event per person (each browser reloads what it shows).
  const people = [...new Map(lines.map((line) => [line.to, line.chatId])).entries()];
  const first = chatIds[0];
  if (first) people.push([senderId, first]);
  people.sort(([a], [b]) => a.localeCompare(b));
  const arrayOf = (values: readonly string[]) => `{${values.map((value) => `"${value}"`).join(",")}}`;
  await tx.execute(sql`
    with realtime_source as (
      select person as user_id, ${CHAT_EVENT_TYPE}::text as type,
        jsonb_build_object('chatId', chat_id, 'kind', 'message') as data
      from unnest(${arrayOf(people.map(([userId]) => userId))}::text[], ${arrayOf(people.map(([, chatId]) => chatId))}::uuid[])
        as source(person, chat_id)
      order by person
    ),
    ${userEventCtes("realtime_source")}
    select count(*) from realtime_event`);
}

/**
 * A completed deal changes both members' reputation rows (decision 0616): their trades completed,
 * recounted by the one writer of those rows, in the deal's transaction.
 */
export async function countCompletedTrade(
  ctx: Pick<AppContext, "clock">,
  tx: Tx,
  userIds: readonly string[],
): Promise<void> {
  for (const userId of [...userIds].sort()) await recountReputation(tx, ctx, userId);
}

export interface ActiveDeal {
  id: string;
  chatId: string | null;
  sellerId: string;
  buyerId: string;
}

export async function activeDealOf(tx: Tx, postId: string): Promise<ActiveDeal | null> {
  const [deal] = await tx
    .select({ id: deals.id, chatId: deals.chatId, sellerId: deals.sellerId, buyerId: deals.buyerId })
    .from(deals)
    .where(and(eq(deals.postId, postId), eq(deals.state, "active")))
    .limit(1);
  return deal ?? null;
}

/**
 * Decision 0604: the deal is done (the seller marked it sold or the buyer said 'I got it'): it
 * is completed, both members' trades count, its chat says so and the other side is told. The
 * listing's status is the caller's (setListingStatus, or the deal's own writer).
 */
export async function completeDealRow(
  ctx: AppContext,
  tx: Tx,
  listing: ListingRef,
  deal: ActiveDeal,
  actorId: string,
): Promise<void> {
  const now = ctx.clock.now();
  await tx.update(deals).set({ state: "completed", completedAt: now }).where(eq(deals.id, deal.id));
  await countCompletedTrade(ctx, tx, [deal.sellerId, deal.buyerId]);
  const other = actorId === deal.sellerId ? deal.buyerId : deal.sellerId;
  if (deal.chatId) {
    await appendTradeMessage(ctx, tx, { id: deal.chatId, campusId: listing.campusId }, actorId, other, {
      text: SYSTEM_LINES["deal-completed"],
      systemEvent: "deal-completed",
    });
  }
  await notify(tx, ctx, {
    type: "deal",
    event: "completed",
    to: other,
    actorId,
    campusId: listing.campusId,
    postId: listing.id,
    chatId: deal.chatId,
    dealId: deal.id,
  });
}
