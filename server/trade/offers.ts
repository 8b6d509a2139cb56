import { and, count, eq, gt, lte, sql } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import { requireSender } from "../chats/access";
import { blockBetween } from "../chats/blocks";
import type { AppContext } from "../context";
import type { Tx } from "../db/client";
import { isUuid } from "../db/ids";
import { offers, posts, user } from "../db/schema";
import { notify } from "../notifications/notify";
import { formatPrice } from "../posts/listing.shared";
import { type LockedPost, lockPost } from "../posts/post-lock";
import {
  amountCentsSchema,
  OFFER_TTL_MS,
  OFFERS_PER_DAY,
  offerNoteSchema,
  TRADE_MESSAGES,
} from "./offer-rules.shared";
import { announceCardChanged, appendTradeMessage, ensureChat } from "./trade-chat";
import { offerChanged, offerNotFound, TradeError } from "./trade-errors";

/**
 * Offers (decision 0601): a buyer makes one on a listing, the two answer each other in turns
 * (counter, accept, decline), the sender may withdraw. Every writer locks the listing first
 * (lockPost), then the offer, so two answers to one listing take turns.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

export type OfferRow = typeof offers.$inferSelect;

/** Decision 0601: a bad amount or note is a 400 with its message; nothing is written. */
export function checkAmount(value: unknown, priceCents: number | null): number {
  const parsed = amountCentsSchema.safeParse(value);
  if (!parsed.success) {
    throw new TradeError(
      "invalid-input",
      parsed.error.issues[0]?.message ?? TRADE_MESSAGES.badAmount,
      "amount",
    );
  }
  if (priceCents !== null && parsed.data > priceCents) {
    throw new TradeError("invalid-input", TRADE_MESSAGES.amountOverPrice, "amount");
  }
  return parsed.data;
}

export function checkNote(value: unknown): string | null {
  const parsed = offerNoteSchema.safeParse(value ?? undefined);
  if (!parsed.success) throw new TradeError("invalid-input", TRADE_MESSAGES.noteTooLong, "note");
  return parsed.data ? parsed.data : null;
}

/** What the offer rules read of a listing beyond the lock's fields. */
async function listingExtras(tx: Tx, postId: string) {
  const [row] = await tx
    .select({ priceTerms: posts.priceTerms, moderationState: posts.moderationState })
    .from(posts)
    .where(eq(posts.id, postId))
    .limit(1);
  return row ?? { priceTerms: null, moderationState: "removed" as const };
}

/**
 * Decision 0601: whether the listing takes offers: someone's top-level selling post with a
 * price above zero, not Firm, Available, shown. The reason it does not, else null.
 */
export function offerRefusal(
  post: Pick<LockedPost, "type" | "parentId" | "listingKind" | "priceCents" | "listingStatus">,
  extras: { priceTerms: string | null; moderationState: string | null },
): string | null {
  if (post.type !== "post" || post.parentId !== null || post.listingKind !== "selling") {
    return TRADE_MESSAGES.noOffersHere;
  }
  if (post.priceCents === null || post.priceCents <= 0 || extras.priceTerms === "firm") {
    return TRADE_MESSAGES.noOffersHere;
  }
  if (post.listingStatus !== "available") return TRADE_MESSAGES.notAvailable;
  return null;
}

async function assertNoBlock(tx: Tx, viewerId: string, otherId: string): Promise<void> {
  if ((await blockBetween(tx, viewerId, otherId)) !== "none") {
    throw new TradeError("blocked", TRADE_MESSAGES.blocked);
  }
  const [other] = await tx
    .select({ banned: user.banned, deletedAt: user.deletedAt })
    .from(user)
    .where(eq(user.id, otherId))
    .limit(1);
  if (!other || other.banned || other.deletedAt) throw new TradeError("conflict", TRADE_MESSAGES.listingGone);
}

/** Decision 0601: OFFERS_PER_DAY offers (counters included) by the buyer on the listing in a day. */
async function assertWithinOfferLimit(
  ctx: AppContext,
  tx: Tx,
  buyerId: string,
  postId: string,
): Promise<void> {
  const since = new Date(ctx.clock.now().getTime() - DAY_MS);
  const [made] = await tx
    .select({ n: count() })
    .from(offers)
    .where(
      and(
        eq(offers.buyerId, buyerId),
        eq(offers.postId, postId),
        gt(offers.createdAt, since),
        eq(offers.fromUserId, buyerId),
      ),
    );
  if ((made?.n ?? 0) >= OFFERS_PER_DAY) throw new TradeError("rate-limited", TRADE_MESSAGES.offerLimit);
}

/** Decision 0601: a pending offer past its time is marked expired by the next write that meets it. */
async function expireStale(ctx: AppContext, tx: Tx, postId: string, buyerId: string): Promise<void> {
  await tx
    .update(offers)
    .set({ state: "expired", version: sql`${offers.version} + 1` })
    .where(
      and(
        eq(offers.postId, postId),
        eq(offers.buyerId, buyerId),
        eq(offers.state, "pending"),
        lte(offers.expiresAt, ctx.clock.now()),
      ),
    );
}

/**
 * Decision 0601 'Make offer': the buyer's offer on someone else's listing that takes offers, at
 * most the price; it opens (or finds) the pair's conversation, names the listing there, posts
 * the card and tells the seller. One pending offer per buyer and listing; OFFERS_PER_DAY a day.
 */
export async function makeOffer(
  ctx: AppContext,
  viewer: Viewer | null,
  input: { postId: string; amountCents: unknown; note?: unknown },
): Promise<{ offerId: string; chatId: string }> {
  const buyer = requireSender(viewer, ctx.clock.now());
  const note = checkNote(input.note);
  checkAmount(input.amountCents, null);
  if (!isUuid(input.postId)) throw new TradeError("not-found", TRADE_MESSAGES.listingGone);
  return ctx.db.transaction(async (tx) => {
    const post = await lockPost(tx, input.postId);
    const extras = await listingExtras(tx, post.id);
    if (post.campusId !== buyer.campusId || extras.moderationState !== null) {
      throw new TradeError("not-found", TRADE_MESSAGES.listingGone);
    }
    if (post.authorId === buyer.id) throw new TradeError("forbidden", TRADE_MESSAGES.ownListing);
    const refusal = offerRefusal(post, extras);
    if (refusal) throw new TradeError("conflict", refusal);
    const amountCents = checkAmount(input.amountCents, post.priceCents);
    await assertNoBlock(tx, buyer.id, post.authorId);
    await expireStale(ctx, tx, post.id, buyer.id);
    const [pending] = await tx
      .select({ id: offers.id })
      .from(offers)
      .where(and(eq(offers.postId, post.id), eq(offers.buyerId, buyer.id), eq(offers.state, "pending")))
      .limit(1);
    if (pending) throw new TradeError("conflict", TRADE_MESSAGES.alreadyPending);
    await assertWithinOfferLimit(ctx, tx, buyer.id, post.id);
    const chat = await ensureChat(ctx, tx, post.campusId, buyer.id, post.authorId, post.id);
    const offer = await insertOffer(ctx, tx, {
      post,
      chatId: chat.id,
      buyerId: buyer.id,
      fromUserId: buyer.id,
      toUserId: post.authorId,
      amountCents,
      note,
      replacesId: null,
    });
    await appendTradeMessage(ctx, tx, chat, buyer.id, post.authorId, {
      text: TRADE_MESSAGES.offerPreview(formatPrice(amountCents)),
      offerId: offer,
    });
    await notify(tx, ctx, {
      type: "offer",
      event: "made",
      to: post.authorId,
      actorId: buyer.id,
      campusId: post.campusId,
      postId: post.id,
      chatId: chat.id,
      offerId: offer,
    });
    return { offerId: offer, chatId: chat.id };
  });
}

async function insertOffer(
  ctx: AppContext,
  tx: Tx,
  values: {
    post: LockedPost;
    chatId: string;
    buyerId: string;
    fromUserId: string;
    toUserId: string;
    amountCents: number;
    note: string | null;
    replacesId: string | null;
  },
): Promise<string> {
  const now = ctx.clock.now();
  const [row] = await tx
    .insert(offers)
    .values({
      campusId: values.post.campusId,
      postId: values.post.id,
      chatId: values.chatId,
      sellerId: values.post.authorId,
      buyerId: values.buyerId,
      fromUserId: values.fromUserId,
      toUserId: values.toUserId,
      amountCents: values.amountCents,
      note: values.note,
      replacesId: values.replacesId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + OFFER_TTL_MS),
    })
    .returning({ id: offers.id });
  if (!row) throw new Error("trade: the offer was not inserted");
  return row.id;
}

/**
 * The offer and its listing, both locked (listing first), if the viewer is one of its two people
 * on their campus; anyone else's id is 'not found' (decision 0601: a stranger learns nothing).
 */
export async function lockOfferFor(
  tx: Tx,
  viewer: Viewer,
  offerId: string,
): Promise<{ offer: OfferRow; post: LockedPost }> {
  if (!isUuid(offerId)) throw offerNotFound();
  const [found] = await tx
    .select({
      postId: offers.postId,
      sellerId: offers.sellerId,
      buyerId: offers.buyerId,
      campusId: offers.campusId,
    })
    .from(offers)
    .where(eq(offers.id, offerId))
    .limit(1);
  if (
    !found ||
    found.campusId !== viewer.campusId ||
    (found.sellerId !== viewer.id && found.buyerId !== viewer.id)
  ) {
    throw offerNotFound();
  }
  const post = await lockPost(tx, found.postId);
  const [offer] = await tx.select().from(offers).where(eq(offers.id, offerId)).for("update").limit(1);
  if (!offer) throw offerNotFound();
  return { offer, post };
}

/** Decision 0601: a pending offer still in time, else 'This offer changed'. */
export function assertOpen(ctx: AppContext, offer: OfferRow, version?: unknown): void {
  if (offer.state !== "pending" || offer.expiresAt.getTime() <= ctx.clock.now().getTime())
    throw offerChanged();
  if (version !== undefined && version !== null && version !== offer.version) throw offerChanged();
}

/** Decision 0601 'Counter': the recipient answers with another amount; the offer reads Countered. */
export async function counterOffer(
  ctx: AppContext,
  viewer: Viewer | null,
  offerId: string,
  input: { amountCents: unknown; note?: unknown; version?: unknown },
): Promise<{ offerId: string }> {
  const member = requireSender(viewer, ctx.clock.now());
  const note = checkNote(input.note);
  checkAmount(input.amountCents, null);
  return ctx.db.transaction(async (tx) => {
    const { offer, post } = await lockOfferFor(tx, member, offerId);
    if (offer.toUserId !== member.id) throw new TradeError("forbidden", TRADE_MESSAGES.notYourTurn);
    assertOpen(ctx, offer, input.version);
    const extras = await listingExtras(tx, post.id);
    const refusal = offerRefusal(post, extras);
    if (refusal || extras.moderationState !== null)
      throw new TradeError("conflict", refusal ?? TRADE_MESSAGES.listingGone);
    const amountCents = checkAmount(input.amountCents, post.priceCents);
    await assertNoBlock(tx, member.id, offer.fromUserId);
    if (member.id === offer.buyerId) await assertWithinOfferLimit(ctx, tx, member.id, post.id);
    await tx
      .update(offers)
      .set({ state: "countered", version: sql`${offers.version} + 1`, decidedAt: ctx.clock.now() })
      .where(eq(offers.id, offer.id));
    const counter = await insertOffer(ctx, tx, {
      post,
      chatId: offer.chatId,
      buyerId: offer.buyerId,
      fromUserId: member.id,
      toUserId: offer.fromUserId,
      amountCents,
      note,
      replacesId: offer.id,
    });
    const chat = { id: offer.chatId, campusId: offer.campusId };
    await appendTradeMessage(ctx, tx, chat, member.id, offer.fromUserId, {
      text: TRADE_MESSAGES.offerPreview(formatPrice(amountCents)),
      offerId: counter,
    });
    await notify(tx, ctx, {
      type: "offer",
      event: "countered",
      to: offer.fromUserId,
      actorId: member.id,
      campusId: offer.campusId,
      postId: post.id,
      chatId: offer.chatId,
      offerId: counter,
    });
    return { offerId: counter };
  });
}

/**
 * Decision 0601: the recipient declines, or the sender withdraws, a pending offer; the card
 * changes in place in both browsers and the other side is told.
 */
export async function answerOffer(
  ctx: AppContext,
  viewer: Viewer | null,
  offerId: string,
  answer: "decline" | "withdraw",
): Promise<void> {
  const member = requireSender(viewer, ctx.clock.now());
  await ctx.db.transaction(async (tx) => {
    const { offer, post } = await lockOfferFor(tx, member, offerId);
    const mine = answer === "decline" ? offer.toUserId : offer.fromUserId;
    if (mine !== member.id) throw new TradeError("forbidden", TRADE_MESSAGES.notYourTurn);
    assertOpen(ctx, offer);
    await tx
      .update(offers)
      .set({
        state: answer === "decline" ? "declined" : "withdrawn",
        version: sql`${offers.version} + 1`,
        decidedAt: ctx.clock.now(),
      })
      .where(eq(offers.id, offer.id));
    const other = member.id === offer.fromUserId ? offer.toUserId : offer.fromUserId;
    await announceCardChanged(tx, offer.chatId, [member.id, other]);
    await notify(tx, ctx, {
      type: "offer",
      event: answer === "decline" ? "declined" : "withdrawn",
      to: other,
      actorId: member.id,
      campusId: offer.campusId,
      postId: post.id,
      chatId: offer.chatId,
      offerId: offer.id,
    });
  });
}
