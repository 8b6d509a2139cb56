import { and, desc, eq, inArray, or } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Viewer } from "../accounts/viewer";
import { memberChat, requireReader } from "../chats/access";
import type { AppContext } from "../context";
import { isUuid } from "../db/ids";
import { chats, deals, offers, postMedia, posts, user } from "../db/schema";
import { shownTo, visibilityNow } from "../moderation/visibility";
import type { ListingStatus } from "../posts/listing.shared";
import { PREVIEW_CHARACTERS } from "../posts/rich-text.shared";
import { type OfferDisplayState, offerDisplayState } from "./offer-rules.shared";

/**
 * What the trade's screens show (decision 0602): an offer's card as each of its two people sees
 * it, a conversation's listing and deal, the seller's 'Offers (n)'. Drawn from the rows as they
 * are now, with the clock, so a card reads Expired the moment its time is up.
 */

export interface TradeListing {
  id: string;
  title: string;
  thumbUrl: string | null;
  priceCents: number | null;
  status: ListingStatus;
}

export interface OfferCardView {
  id: string;
  listing: TradeListing | null;
  amountCents: number;
  note: string | null;
  fromViewer: boolean;
  fromName: string;
  state: OfferDisplayState;
  version: number;
  /** Milliseconds left while pending; null otherwise. */
  msLeft: number | null;
  /** The viewer's buttons (decision 0601: the recipient answers, the sender withdraws). */
  actions: { accept: boolean; counter: boolean; decline: boolean; withdraw: boolean };
}

const sender = alias(user, "offer_sender");

async function listingsById(
  ctx: AppContext,
  viewerId: string,
  postIds: readonly string[],
): Promise<Map<string, TradeListing>> {
  const ids = [...new Set(postIds)];
  const found = new Map<string, TradeListing>();
  if (ids.length === 0) return found;
  const rows = await ctx.db
    .select({
      id: posts.id,
      text: posts.textPlain,
      thumb: postMedia.thumbPath,
      priceCents: posts.priceCents,
      status: posts.listingStatus,
    })
    .from(posts)
    .innerJoin(user, eq(user.id, posts.authorId))
    .leftJoin(postMedia, and(eq(postMedia.postId, posts.id), eq(postMedia.imgOrder, 1)))
    .where(and(inArray(posts.id, ids), shownTo(viewerId, visibilityNow(ctx.clock.now()))));
  for (const row of rows) {
    const firstLine = row.text.split("\n").find((line) => line.trim() !== "") ?? "";
    found.set(row.id, {
      id: row.id,
      title: [...firstLine].slice(0, PREVIEW_CHARACTERS).join(""),
      thumbUrl: row.thumb ? ctx.storage.url(row.thumb) : null,
      priceCents: row.priceCents,
      status: row.status,
    });
  }
  return found;
}

/** The cards of the offers the viewer's thread shows (only offers the viewer is one of the two of). */
export async function offerCards(
  ctx: AppContext,
  viewer: Viewer,
  offerIds: readonly string[],
): Promise<Record<string, OfferCardView>> {
  const ids = [...new Set(offerIds)].filter(isUuid);
  const cards: Record<string, OfferCardView> = {};
  if (ids.length === 0) return cards;
  const rows = await ctx.db
    .select({
      id: offers.id,
      postId: offers.postId,
      amountCents: offers.amountCents,
      note: offers.note,
      fromUserId: offers.fromUserId,
      toUserId: offers.toUserId,
      state: offers.state,
      version: offers.version,
      expiresAt: offers.expiresAt,
      firstName: sender.firstName,
      lastName: sender.lastName,
    })
    .from(offers)
    .innerJoin(sender, eq(sender.id, offers.fromUserId))
    .where(and(inArray(offers.id, ids), or(eq(offers.sellerId, viewer.id), eq(offers.buyerId, viewer.id))));
  const listings = await listingsById(
    ctx,
    viewer.id,
    rows.map((row) => row.postId),
  );
  const now = ctx.clock.now();
  for (const row of rows) {
    const state = offerDisplayState(row, now);
    const open = state === "pending";
    const mine = row.fromUserId === viewer.id;
    cards[row.id] = {
      id: row.id,
      listing: listings.get(row.postId) ?? null,
      amountCents: row.amountCents,
      note: row.note,
      fromViewer: mine,
      fromName: mine ? "You" : `${row.firstName} ${row.lastName}`,
      state,
      version: row.version,
      msLeft: open ? row.expiresAt.getTime() - now.getTime() : null,
      actions: {
        accept: open && !mine,
        counter: open && !mine,
        decline: open && !mine,
        withdraw: open && mine,
      },
    };
  }
  return cards;
}

export interface TradeHeaderView {
  listing: TradeListing | null;
  /** The listing's own row is the viewer's (the seller's actions). */
  viewerIsSeller: boolean;
  deal: { id: string; state: "active" | "completed" | "cancelled"; amountCents: number | null } | null;
}

/**
 * Decision 0602: the top of a conversation about a listing: the listing as it is now and the
 * pair's latest deal on it, with the viewer's side. Null when the chat names no listing or the
 * viewer may not read it.
 */
export async function tradeHeader(
  ctx: AppContext,
  viewer: Viewer | null,
  chatId: string,
): Promise<TradeHeaderView | null> {
  const member = requireReader(viewer);
  const chat = await memberChat(ctx.db, member, chatId);
  if (!chat) return null;
  const [row] = await ctx.db
    .select({ postId: chats.postId, authorId: posts.authorId })
    .from(chats)
    .leftJoin(posts, eq(posts.id, chats.postId))
    .where(eq(chats.id, chat.id))
    .limit(1);
  if (!row?.postId) return null;
  const listing = (await listingsById(ctx, member.id, [row.postId])).get(row.postId) ?? null;
  const [deal] = await ctx.db
    .select({ id: deals.id, state: deals.state, amountCents: deals.amountCents })
    .from(deals)
    .where(
      and(
        eq(deals.postId, row.postId),
        or(
          and(eq(deals.sellerId, member.id), eq(deals.buyerId, chat.otherUserId)),
          and(eq(deals.buyerId, member.id), eq(deals.sellerId, chat.otherUserId)),
        ),
      ),
    )
    .orderBy(desc(deals.createdAt))
    .limit(1);
  return { listing, viewerIsSeller: row.authorId === member.id, deal: deal ?? null };
}

export interface ListingOfferLine {
  id: string;
  chatId: string;
  buyerName: string;
  amountCents: number;
  fromBuyer: boolean;
  msLeft: number;
}

/**
 * Decision 0601 'Offers (n)': the open offers on the seller's own listing, best first (highest
 * amount, then oldest). Anyone else gets an empty list.
 */
export async function listingOffers(
  ctx: AppContext,
  viewer: Viewer | null,
  postId: string,
): Promise<ListingOfferLine[]> {
  if (!viewer || !isUuid(postId)) return [];
  const now = ctx.clock.now();
  const rows = await ctx.db
    .select({
      id: offers.id,
      chatId: offers.chatId,
      firstName: user.firstName,
      lastName: user.lastName,
      amountCents: offers.amountCents,
      fromUserId: offers.fromUserId,
      buyerId: offers.buyerId,
      expiresAt: offers.expiresAt,
      createdAt: offers.createdAt,
    })
    .from(offers)
    .innerJoin(user, eq(user.id, offers.buyerId))
    .where(and(eq(offers.postId, postId), eq(offers.state, "pending"), eq(offers.sellerId, viewer.id)))
    .orderBy(desc(offers.amountCents), offers.createdAt)
    .limit(100);
  return rows
    .filter((row) => row.expiresAt.getTime() > now.getTime())
    .map((row) => ({
      id: row.id,
      chatId: row.chatId,
      buyerName: `${row.firstName} ${row.lastName}`,
      amountCents: row.amountCents,
      fromBuyer: row.fromUserId === row.buyerId,
      msLeft: row.expiresAt.getTime() - now.getTime(),
    }));
}
