import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPost } from "../../tests/support/factories";
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
import { blockUser } from "../chats/blocks";
import { chats, offers } from "../db/schema";
import { setListingStatus } from "../posts/listing-status";
import { runOfferRound } from "./offer-jobs";
import { OFFER_TTL_MS, TRADE_MESSAGES } from "./offer-rules.shared";
import { answerOffer, counterOffer, makeOffer } from "./offers";
import { offerCards } from "./trade-views";

// Decision 0601: the offer state machine, who may do what, turns, limits and expiry by the clock.

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const HOUR = 60 * 60 * 1000;

describe("making an offer", () => {
  it("opens the pair's conversation about the listing, posts the card and tells the seller", async () => {
    const seller = await createTrader(t, "Sam Seller");
    const buyer = await createTrader(t, "Bea Buyer");
    const listing = await createOfferableListing(t, seller);
    const { offerId, chatId, row } = await offerOn(t, buyer, listing.id, 4000);
    expect(row).toMatchObject({
      state: "pending",
      amountCents: 4000,
      sellerId: seller.id,
      buyerId: buyer.id,
      fromUserId: buyer.id,
      toUserId: seller.id,
      version: 1,
    });
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(OFFER_TTL_MS);
    const [chat] = await t.ctx.db.select().from(chats).where(eq(chats.id, chatId));
    expect(chat?.postId).toBe(listing.id);
    expect(await chatTrail(t, chatId)).toEqual([
      { text: "Offer: $40", offerId, systemEvent: null, senderId: buyer.id },
    ]);
    expect(await tradeNotices(t, seller.id)).toContain("offer:made");
    const cards = await offerCards(t.ctx, seller.viewer, [offerId]);
    expect(cards[offerId]).toMatchObject({
      state: "pending",
      fromName: "Bea B.",
      fromViewer: false,
      actions: { accept: true, counter: true, decline: true, withdraw: false },
      listing: { id: listing.id, priceCents: 5000, status: "available" },
    });
    const buyerCards = await offerCards(t.ctx, buyer.viewer, [offerId]);
    expect(buyerCards[offerId]?.actions).toEqual({
      accept: false,
      counter: false,
      decline: false,
      withdraw: true,
    });
    // A stranger's thread never shows someone else's offer.
    const stranger = await createTrader(t, "Sid Stranger");
    expect(await offerCards(t.ctx, stranger.viewer, [offerId])).toEqual({});
  });

  it("refuses NaN, negative, zero, huge, fractional-cent and over-the-price amounts with a 400, writing nothing", async () => {
    const seller = await createTrader(t, "Sam Seller");
    const buyer = await createTrader(t, "Bea Buyer");
    const listing = await createOfferableListing(t, seller);
    const bad: unknown[] = [Number.NaN, -100, 0, 1e15, 12.5, "4000", Number.POSITIVE_INFINITY, 5001];
    for (const amountCents of bad) {
      const refusal = await makeOffer(t.ctx, buyer.viewer, { postId: listing.id, amountCents }).catch(
        (e) => e,
      );
      expect(refusal).toMatchObject({ code: "invalid-input", status: 400 });
      expect(refusal.message.length).toBeGreaterThan(0);
    }
    await expect(
      makeOffer(t.ctx, buyer.viewer, { postId: listing.id, amountCents: 100, note: "x".repeat(501) }),
    ).rejects.toMatchObject({ status: 400, message: TRADE_MESSAGES.noteTooLong });
    expect(await t.ctx.db.select().from(offers).where(eq(offers.postId, listing.id))).toHaveLength(0);
    // The price itself is fine.
    await expect(
      makeOffer(t.ctx, buyer.viewer, { postId: listing.id, amountCents: 5000 }),
    ).resolves.toBeTruthy();
  });

  it("is refused on one's own, Firm, Free, Wanted, Reserved and Sold listings, and across a block", async () => {
    const seller = await createTrader(t, "Sam Seller");
    const buyer = await createTrader(t, "Bea Buyer");
    const own = await createOfferableListing(t, buyer);
    await expect(makeOffer(t.ctx, buyer.viewer, { postId: own.id, amountCents: 100 })).rejects.toMatchObject({
      status: 403,
      message: TRADE_MESSAGES.ownListing,
    });
    const firm = await createOfferableListing(t, seller, { priceTerms: "firm" });
    const free = await createTestPost(t, seller.viewer, { listing: { price: "free" } });
    const wanted = await createTestPost(t, seller.viewer, { listing: { listingKind: "wanted" } });
    for (const post of [firm, free, wanted]) {
      await expect(
        makeOffer(t.ctx, buyer.viewer, { postId: post.id, amountCents: 100 }),
      ).rejects.toMatchObject({
        status: 409,
        message: TRADE_MESSAGES.noOffersHere,
      });
    }
    for (const status of ["reserved", "sold"] as const) {
      const listing = await createOfferableListing(t, seller);
      await setListingStatus(t.ctx, seller.viewer, { postId: listing.id, status });
      await expect(
        makeOffer(t.ctx, buyer.viewer, { postId: listing.id, amountCents: 100 }),
      ).rejects.toMatchObject({ status: 409, message: TRADE_MESSAGES.notAvailable });
    }
    const listing = await createOfferableListing(t, seller);
    await blockUser(t.ctx, seller.viewer, buyer.id);
    await expect(
      makeOffer(t.ctx, buyer.viewer, { postId: listing.id, amountCents: 100 }),
    ).rejects.toMatchObject({
      status: 403,
      message: TRADE_MESSAGES.blocked,
    });
    // Another campus's listing, or no listing at all, is not found.
    const elsewhere = await createTrader(t, "Uma Elsewhere", "ut");
    await expect(
      makeOffer(t.ctx, elsewhere.viewer, { postId: listing.id, amountCents: 100 }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(makeOffer(t.ctx, buyer.viewer, { postId: "nope", amountCents: 100 })).rejects.toMatchObject({
      status: 404,
    });
    await expect(makeOffer(t.ctx, null, { postId: listing.id, amountCents: 100 })).rejects.toMatchObject({
      code: "sign-in",
    });
  });

  it("allows one pending offer per buyer and listing, and 3 a day", async () => {
    const seller = await createTrader(t, "Sam Seller");
    const buyer = await createTrader(t, "Bea Buyer");
    const listing = await createOfferableListing(t, seller);
    const first = await offerOn(t, buyer, listing.id, 3000);
    await expect(
      makeOffer(t.ctx, buyer.viewer, { postId: listing.id, amountCents: 3100 }),
    ).rejects.toMatchObject({
      status: 409,
      message: TRADE_MESSAGES.alreadyPending,
    });
    await answerOffer(t.ctx, buyer.viewer, first.offerId, "withdraw");
    const second = await offerOn(t, buyer, listing.id, 3200);
    await answerOffer(t.ctx, buyer.viewer, second.offerId, "withdraw");
    const third = await offerOn(t, buyer, listing.id, 3300);
    await answerOffer(t.ctx, seller.viewer, third.offerId, "decline");
    await expect(
      makeOffer(t.ctx, buyer.viewer, { postId: listing.id, amountCents: 3400 }),
    ).rejects.toMatchObject({
      status: 429,
      message: TRADE_MESSAGES.offerLimit,
    });
    // Another buyer is not held by this one's limit; a day later this one may offer again.
    const other = await createTrader(t, "Oli Other");
    await expect(offerOn(t, other, listing.id, 3000)).resolves.toBeTruthy();
    t.clock.advance(OFFER_TTL_MS + 1000);
    expect((await offerOn(t, buyer, listing.id, 3500)).row.state).toBe("pending");
  });
});

describe("answering an offer", () => {
  it("turns alternate: the recipient counters, which replaces the pending offer; the sender may not", async () => {
    const seller = await createTrader(t, "Sam Seller");
    const buyer = await createTrader(t, "Bea Buyer");
    const listing = await createOfferableListing(t, seller);
    const { offerId, chatId } = await offerOn(t, buyer, listing.id, 3500);
    await expect(counterOffer(t.ctx, buyer.viewer, offerId, { amountCents: 3600 })).rejects.toMatchObject({
      status: 403,
      message: TRADE_MESSAGES.notYourTurn,
    });
    await expect(counterOffer(t.ctx, seller.viewer, offerId, { amountCents: 5100 })).rejects.toMatchObject({
      status: 400,
      message: TRADE_MESSAGES.amountOverPrice,
    });
    const counter = await counterOffer(t.ctx, seller.viewer, offerId, {
      amountCents: 4500,
      note: "Meet halfway?",
    });
    expect(await offerRow(t, offerId)).toMatchObject({ state: "countered", version: 2 });
    expect(await offerRow(t, counter.offerId)).toMatchObject({
      state: "pending",
      fromUserId: seller.id,
      toUserId: buyer.id,
      buyerId: buyer.id,
      replacesId: offerId,
      note: "Meet halfway?",
      amountCents: 4500,
    });
    expect(await tradeNotices(t, buyer.id)).toContain("offer:countered");
    // The countered offer can no longer be answered; the counter's recipient is now the buyer.
    await expect(answerOffer(t.ctx, seller.viewer, offerId, "withdraw")).rejects.toMatchObject({
      status: 403,
    });
    await expect(answerOffer(t.ctx, buyer.viewer, offerId, "withdraw")).rejects.toMatchObject({
      message: TRADE_MESSAGES.offerChanged,
    });
    await expect(
      counterOffer(t.ctx, seller.viewer, counter.offerId, { amountCents: 4400 }),
    ).rejects.toMatchObject({
      status: 403,
    });
    const back = await counterOffer(t.ctx, buyer.viewer, counter.offerId, { amountCents: 4000 });
    expect(await offerRow(t, back.offerId)).toMatchObject({ fromUserId: buyer.id, state: "pending" });
    expect((await chatTrail(t, chatId)).map((m) => m.text)).toEqual([
      "Offer: $35",
      "Offer: $45",
      "Offer: $40",
    ]);
  });

  it("the recipient declines, the sender withdraws; each tells the other and changes the card", async () => {
    const seller = await createTrader(t, "Sam Seller");
    const buyer = await createTrader(t, "Bea Buyer");
    const listing = await createOfferableListing(t, seller);
    const first = await offerOn(t, buyer, listing.id, 3000);
    await expect(answerOffer(t.ctx, buyer.viewer, first.offerId, "decline")).rejects.toMatchObject({
      status: 403,
    });
    await answerOffer(t.ctx, seller.viewer, first.offerId, "decline");
    expect(await offerRow(t, first.offerId)).toMatchObject({ state: "declined", version: 2 });
    expect(await tradeNotices(t, buyer.id)).toContain("offer:declined");
    const second = await offerOn(t, buyer, listing.id, 3100);
    await expect(answerOffer(t.ctx, seller.viewer, second.offerId, "withdraw")).rejects.toMatchObject({
      status: 403,
    });
    await answerOffer(t.ctx, buyer.viewer, second.offerId, "withdraw");
    expect((await offerRow(t, second.offerId)).state).toBe("withdrawn");
    expect(await tradeNotices(t, seller.id)).toContain("offer:withdrawn");
    const cards = await offerCards(t.ctx, seller.viewer, [first.offerId, second.offerId]);
    expect(cards[first.offerId]?.state).toBe("declined");
    expect(cards[second.offerId]?.actions).toEqual({
      accept: false,
      counter: false,
      decline: false,
      withdraw: false,
    });
  });

  it("a third student's ids are not found, whatever they try", async () => {
    const seller = await createTrader(t, "Sam Seller");
    const buyer = await createTrader(t, "Bea Buyer");
    const third = await createTrader(t, "Tess Third");
    const listing = await createOfferableListing(t, seller);
    const { offerId } = await offerOn(t, buyer, listing.id, 3000);
    await expect(counterOffer(t.ctx, third.viewer, offerId, { amountCents: 100 })).rejects.toMatchObject({
      status: 404,
    });
    await expect(answerOffer(t.ctx, third.viewer, offerId, "decline")).rejects.toMatchObject({ status: 404 });
    await expect(answerOffer(t.ctx, third.viewer, offerId, "withdraw")).rejects.toMatchObject({
      status: 404,
    });
    expect((await offerRow(t, offerId)).state).toBe("pending");
  });
});

describe("expiry", () => {
  it("reads Expired from the clock with no job run; the job reminds 2 hours before and notices the expiry, once each", async () => {
    const seller = await createTrader(t, "Sam Seller");
    const buyer = await createTrader(t, "Bea Buyer");
    const listing = await createOfferableListing(t, seller);
    const { offerId } = await offerOn(t, buyer, listing.id, 3000);
    t.clock.advance(21 * HOUR);
    await runOfferRound(t.ctx);
    expect(await tradeNotices(t, seller.id)).not.toContain("offer:expiring");
    t.clock.advance(1.5 * HOUR);
    expect((await offerCards(t.ctx, seller.viewer, [offerId]))[offerId]?.msLeft).toBe(1.5 * HOUR);
    await runOfferRound(t.ctx);
    await runOfferRound(t.ctx);
    expect((await tradeNotices(t, seller.id)).filter((n) => n === "offer:expiring")).toHaveLength(1);
    t.clock.advance(1.5 * HOUR);
    // No job has run since the time was up: the card reads Expired, without buttons, already.
    const card = (await offerCards(t.ctx, seller.viewer, [offerId]))[offerId];
    expect(card).toMatchObject({ state: "expired", msLeft: null });
    expect(card?.actions).toEqual({ accept: false, counter: false, decline: false, withdraw: false });
    expect((await offerRow(t, offerId)).state).toBe("pending");
    await expect(counterOffer(t.ctx, seller.viewer, offerId, { amountCents: 100 })).rejects.toMatchObject({
      message: TRADE_MESSAGES.offerChanged,
    });
    await runOfferRound(t.ctx);
    await runOfferRound(t.ctx);
    expect((await offerRow(t, offerId)).state).toBe("expired");
    expect((await tradeNotices(t, seller.id)).filter((n) => n === "offer:expired")).toHaveLength(1);
    expect((await tradeNotices(t, buyer.id)).filter((n) => n === "offer:expired")).toHaveLength(1);
    expect(await listingStatus(t, listing.id)).toBe("available");
  });
});
