import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestHeaders } from "../../tests/support/factories";
import { createModerator, decisionInput, openTestItem } from "../../tests/support/moderation";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import {
  chatTrail,
  createOfferableListing,
  createTrader,
  listingStatus,
  offerOn,
  offerRow,
  tradeNotices,
} from "../../tests/support/trade-factories";
import { startConversation } from "../chats/conversations";
import { deals, offers, reputations, user } from "../db/schema";
import { decideItem } from "../moderation/decisions";
import { setListingStatus, watchListing } from "../posts/listing-status";
import { deletePost } from "../posts/posts";
import { deleteAccount } from "../privacy/deletion";
import { cancelDeal, completeDeal, listBuyersToMark, markSoldTo } from "./deals";
import { acceptOffer } from "./offer-accept";
import { TRADE_MESSAGES } from "./offer-rules.shared";

// Decision 0604: deals from accept to Completed or Cancelled, and the listing's writers keeping them true.

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

async function dealFor(price = 4000) {
  const seller = await createTrader(t, "Sam Seller");
  const buyer = await createTrader(t, "Bea Buyer");
  const listing = await createOfferableListing(t, seller);
  const offer = await offerOn(t, buyer, listing.id, price);
  const { dealId, chatId } = await acceptOffer(t.ctx, seller.viewer, offer.offerId, {
    amountCents: price,
    version: 1,
  });
  return { seller, buyer, listing, dealId, chatId };
}

async function dealRow(id: string) {
  const [row] = await t.ctx.db.select().from(deals).where(eq(deals.id, id));
  return row;
}

async function trades(userId: string) {
  const [row] = await t.ctx.db.select().from(reputations).where(eq(reputations.userId, userId));
  return row?.tradesCompleted ?? 0;
}

describe("completing and cancelling", () => {
  it("'I got it' completes the deal: the listing is Sold, both count a trade, the seller is told", async () => {
    const { seller, buyer, listing, dealId, chatId } = await dealFor();
    const third = await createTrader(t, "Tess Third");
    await expect(completeDeal(t.ctx, third.viewer, dealId)).rejects.toMatchObject({ status: 404 });
    await completeDeal(t.ctx, buyer.viewer, dealId);
    expect(await dealRow(dealId)).toMatchObject({ state: "completed" });
    expect(await listingStatus(t, listing.id)).toBe("sold");
    expect(await trades(seller.id)).toBe(1);
    expect(await trades(buyer.id)).toBe(1);
    expect(await tradeNotices(t, seller.id)).toContain("deal:completed");
    expect((await chatTrail(t, chatId)).at(-1)).toMatchObject({ systemEvent: "deal-completed" });
    await expect(completeDeal(t.ctx, seller.viewer, dealId)).rejects.toMatchObject({ status: 409 });
  });

  it("cancelling needs a reason, returns the listing to Available and tells the watchers", async () => {
    const { seller, buyer, listing, dealId, chatId } = await dealFor();
    const watcher = await createTrader(t, "Wes Watcher");
    await watchListing(t.ctx, watcher.viewer, listing.id);
    for (const reason of [undefined, "   ", "x".repeat(501)]) {
      await expect(cancelDeal(t.ctx, seller.viewer, dealId, { reason })).rejects.toMatchObject({
        status: 400,
      });
    }
    await cancelDeal(t.ctx, seller.viewer, dealId, { reason: "They stopped answering" });
    expect(await dealRow(dealId)).toMatchObject({
      state: "cancelled",
      cancelledBy: seller.id,
      cancelReason: "They stopped answering",
    });
    expect(await listingStatus(t, listing.id)).toBe("available");
    expect(await tradeNotices(t, watcher.id)).toContain("available again");
    expect(await tradeNotices(t, buyer.id)).toContain("deal:cancelled");
    expect((await chatTrail(t, chatId)).at(-1)).toMatchObject({ systemEvent: "deal-cancelled" });
    await expect(cancelDeal(t.ctx, buyer.viewer, dealId, { reason: "again" })).rejects.toMatchObject({
      status: 409,
    });
  });

  it("the manual status follows the deal: Sold completes it, Available is refused while it is active", async () => {
    const { seller, listing, dealId } = await dealFor();
    await expect(
      setListingStatus(t.ctx, seller.viewer, { postId: listing.id, status: "available" }),
    ).rejects.toMatchObject({ status: 409, message: TRADE_MESSAGES.activeDeal });
    expect(await listingStatus(t, listing.id)).toBe("reserved");
    await setListingStatus(t.ctx, seller.viewer, { postId: listing.id, status: "sold" });
    expect(await dealRow(dealId)).toMatchObject({ state: "completed" });
    // Sold, then Available again by hand: no deal stands in the way.
    await setListingStatus(t.ctx, seller.viewer, { postId: listing.id, status: "available" });
    expect(await listingStatus(t, listing.id)).toBe("available");
  });

  it("marking a listing Reserved or Sold by hand closes its pending offers", async () => {
    const seller = await createTrader(t, "Sam Seller");
    const buyer = await createTrader(t, "Bea Buyer");
    const listing = await createOfferableListing(t, seller);
    const offer = await offerOn(t, buyer, listing.id, 3000);
    await setListingStatus(t.ctx, seller.viewer, { postId: listing.id, status: "reserved" });
    expect((await offerRow(t, offer.offerId)).state).toBe("closed");
    expect(await tradeNotices(t, buyer.id)).toContain("offer:voided");
  });
});

describe("'Mark sold to…'", () => {
  it("lists who messaged or offered, completes a deal with the one named, closes the rest", async () => {
    const seller = await createTrader(t, "Sam Seller");
    const asker = await createTrader(t, "Ada Asker");
    const offerer = await createTrader(t, "Otto Offerer");
    const stranger = await createTrader(t, "Sid Stranger");
    const listing = await createOfferableListing(t, seller);
    await startConversation(t.ctx, asker.viewer, {
      recipientId: seller.id,
      text: "Is this still available?",
      postId: listing.id,
      files: [],
    });
    const offer = await offerOn(t, offerer, listing.id, 3000);
    const people = await listBuyersToMark(t.ctx, seller.viewer, listing.id);
    expect(people.map((person) => person.id).sort()).toEqual([asker.id, offerer.id].sort());
    expect(await listBuyersToMark(t.ctx, asker.viewer, listing.id)).toEqual([]);
    await expect(
      markSoldTo(t.ctx, seller.viewer, { postId: listing.id, buyerId: stranger.id }),
    ).rejects.toMatchObject({ status: 400, message: TRADE_MESSAGES.notAPerson });
    await expect(
      markSoldTo(t.ctx, asker.viewer, { postId: listing.id, buyerId: offerer.id }),
    ).rejects.toMatchObject({ status: 400 });
    const { dealId } = await markSoldTo(t.ctx, seller.viewer, { postId: listing.id, buyerId: asker.id });
    expect(await dealRow(dealId as string)).toMatchObject({
      state: "completed",
      buyerId: asker.id,
      offerId: null,
    });
    expect(await listingStatus(t, listing.id)).toBe("sold");
    expect((await offerRow(t, offer.offerId)).state).toBe("closed");
    expect(await trades(asker.id)).toBe(1);
  });

  it("'Someone else' marks it sold with no deal", async () => {
    const seller = await createTrader(t, "Sam Seller");
    const listing = await createOfferableListing(t, seller);
    expect(await markSoldTo(t.ctx, seller.viewer, { postId: listing.id, buyerId: null })).toEqual({
      dealId: null,
    });
    expect(await listingStatus(t, listing.id)).toBe("sold");
    expect(await t.ctx.db.select().from(deals).where(eq(deals.postId, listing.id))).toHaveLength(0);
  });
});

describe("the listing's other writers", () => {
  it("deleting a listing closes its offers with a message in each chat", async () => {
    const seller = await createTrader(t, "Sam Seller");
    const buyer = await createTrader(t, "Bea Buyer");
    const listing = await createOfferableListing(t, seller);
    const offer = await offerOn(t, buyer, listing.id, 3000);
    await deletePost(t.ctx, seller.viewer, listing.id);
    expect(await t.ctx.db.select().from(offers).where(eq(offers.id, offer.offerId))).toHaveLength(0);
    expect((await chatTrail(t, offer.chatId)).at(-1)).toMatchObject({ systemEvent: "listing-closed" });
    expect(await tradeNotices(t, buyer.id)).toContain("offer:voided");
  });

  it("a listing removed by moderators closes its offers with a message", async () => {
    const seller = await createTrader(t, "Sam Seller");
    const buyer = await createTrader(t, "Bea Buyer");
    const reporter = await createTrader(t, "Rita Reporter");
    const moderator = await createModerator(t, "ou");
    const listing = await createOfferableListing(t, seller);
    const offer = await offerOn(t, buyer, listing.id, 3000);
    const item = await openTestItem(t, {
      campusId: "ou",
      targetKind: "post",
      targetId: listing.id,
      targetUserId: seller.id,
      reports: [{ reporter, reason: "scam" }],
    });
    await decideItem(t.ctx, moderator.viewer, decisionInput(item, "remove"));
    expect((await offerRow(t, offer.offerId)).state).toBe("closed");
    expect((await chatTrail(t, offer.chatId)).at(-1)).toMatchObject({ systemEvent: "listing-closed" });
  });

  it("account deletion asks a student with a deal in progress to finish or cancel it first", async () => {
    const { buyer, dealId } = await dealFor();
    const headers = requestHeaders({ cookie: buyer.cookie });
    await expect(
      deleteAccount(t.ctx, t.auth, buyer.viewer, { password: buyer.password, confirm: "on" }, headers),
    ).rejects.toMatchObject({ status: 409, message: TRADE_MESSAGES.deletionBlocked });
    const [row] = await t.ctx.db
      .select({ deletedAt: user.deletedAt })
      .from(user)
      .where(eq(user.id, buyer.id));
    expect(row?.deletedAt).toBeNull();
    await cancelDeal(t.ctx, buyer.viewer, dealId, { reason: "Moving away" });
    await deleteAccount(t.ctx, t.auth, buyer.viewer, { password: buyer.password, confirm: "on" }, headers);
    const [after] = await t.ctx.db
      .select({ deletedAt: user.deletedAt })
      .from(user)
      .where(eq(user.id, buyer.id));
    expect(after?.deletedAt).not.toBeNull();
  });
});
