import { and, asc, eq } from "drizzle-orm";
import { chatMessages, notifications, offers, posts } from "../../server/db/schema";
import { makeOffer } from "../../server/trade/offers";
import { createTestMember, createTestPost, type TestMember } from "./factories";
import type { TestContext } from "./test-context";

/** A seller's listing open to offers (decision 0601), $50 unless told. */
export async function createOfferableListing(
  t: TestContext,
  seller: TestMember,
  options: { price?: string; priceTerms?: "offers" | "firm" } = {},
) {
  return createTestPost(t, seller.viewer, {
    text: "Mini fridge, barely used",
    listing: { price: options.price ?? "50", priceTerms: options.priceTerms ?? "offers", condition: "good" },
  });
}

export async function createTrader(t: TestContext, name: string, campusId = "ou"): Promise<TestMember> {
  return createTestMember(t, { fullName: name, campusId });
}

/** A buyer's offer through makeOffer, with its row. */
export async function offerOn(t: TestContext, buyer: TestMember, postId: string, amountCents: number) {
  const made = await makeOffer(t.ctx, buyer.viewer, { postId, amountCents });
  return { ...made, row: await offerRow(t, made.offerId) };
}

export async function offerRow(t: TestContext, offerId: string) {
  const [row] = await t.ctx.db.select().from(offers).where(eq(offers.id, offerId));
  if (!row) throw new Error(`no offer ${offerId}`);
  return row;
}

export async function listingStatus(t: TestContext, postId: string) {
  const [row] = await t.ctx.db
    .select({ status: posts.listingStatus })
    .from(posts)
    .where(eq(posts.id, postId));
  return row?.status;
}

/** The trade notices a member got, as `type:event`. */
export async function tradeNotices(t: TestContext, userId: string): Promise<string[]> {
  const rows = await t.ctx.db
    .select({ type: notifications.type, event: notifications.event })
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(asc(notifications.createdAt));
  return rows.map((row) => (row.event ? `${row.type}:${row.event}` : row.type));
}

/** A chat's messages as the trade wrote them: system events and offer cards, oldest first. */
export async function chatTrail(t: TestContext, chatId: string) {
  return t.ctx.db
    .select({
      text: chatMessages.text,
      offerId: chatMessages.offerId,
      systemEvent: chatMessages.systemEvent,
      senderId: chatMessages.senderId,
    })
    .from(chatMessages)
    .where(and(eq(chatMessages.chatId, chatId)))
    .orderBy(asc(chatMessages.seq));
}
