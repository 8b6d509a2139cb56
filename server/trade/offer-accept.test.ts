import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
import { deals, posts } from "../db/schema";
import { acceptOffer } from "./offer-accept";
import { TRADE_MESSAGES } from "./offer-rules.shared";
import { counterOffer, makeOffer } from "./offers";
import { offerCards, tradeHeader } from "./trade-views";

// Decision 0603: accepting is one transaction; one active deal per listing, whatever the timing.

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

describe("acceptOffer", () => {
  it("reserves the listing, makes the deal and closes every other pending offer with a line and a notice", async () => {
    const seller = await createTrader(t, "Sam Seller");
    const ana = await createTrader(t, "Ana Buyer");
    const ben = await createTrader(t, "Ben Buyer");
    const listing = await createOfferableListing(t, seller);
    const anaOffer = await offerOn(t, ana, listing.id, 4000);
    const benOffer = await offerOn(t, ben, listing.id, 3800);
    const counter = await counterOffer(t.ctx, seller.viewer, anaOffer.offerId, { amountCents: 4500 });
    const counterRow = await offerRow(t, counter.offerId);
    // The seller cannot accept their own counter; a third student's replay of it is not found.
    await expect(
      acceptOffer(t.ctx, seller.viewer, counter.offerId, { amountCents: 4500, version: counterRow.version }),
    ).rejects.toMatchObject({ status: 403, message: TRADE_MESSAGES.ownOffer });
    await expect(
      acceptOffer(t.ctx, ben.viewer, counter.offerId, { amountCents: 4500, version: counterRow.version }),
    ).rejects.toMatchObject({ status: 404 });

    const { dealId, chatId } = await acceptOffer(t.ctx, ana.viewer, counter.offerId, {
      amountCents: 4500,
      version: counterRow.version,
    });
    expect(chatId).toBe(anaOffer.chatId);
    const [deal] = await t.ctx.db.select().from(deals).where(eq(deals.id, dealId));
    expect(deal).toMatchObject({
      state: "active",
      sellerId: seller.id,
      buyerId: ana.id,
      offerId: counter.offerId,
      amountCents: 4500,
      chatId,
    });
    expect(await listingStatus(t, listing.id)).toBe("reserved");
    expect((await offerRow(t, counter.offerId)).state).toBe("accepted");
    expect((await offerRow(t, benOffer.offerId)).state).toBe("closed");
    expect(await tradeNotices(t, seller.id)).toContain("offer:accepted");
    expect(await tradeNotices(t, ben.id)).toContain("offer:closed");
    expect((await chatTrail(t, benOffer.chatId)).at(-1)).toMatchObject({ systemEvent: "offer-closed" });
    expect((await chatTrail(t, chatId)).at(-1)).toMatchObject({ systemEvent: "deal-started" });
    const benCard = (await offerCards(t.ctx, ben.viewer, [benOffer.offerId]))[benOffer.offerId];
    expect(benCard).toMatchObject({ state: "closed", listing: { status: "reserved" } });
    // The conversation's header: the listing and the deal, each side's.
    expect(await tradeHeader(t.ctx, seller.viewer, chatId)).toMatchObject({
      viewerIsSeller: true,
      listing: { id: listing.id, status: "reserved" },
      deal: { id: dealId, state: "active", amountCents: 4500 },
    });
    expect(await tradeHeader(t.ctx, ben.viewer, benOffer.chatId)).toMatchObject({
      viewerIsSeller: false,
      deal: null,
    });
    // Nobody may offer on the reserved listing now.
    const cy = await createTrader(t, "Cy Late");
    await expect(makeOffer(t.ctx, cy.viewer, { postId: listing.id, amountCents: 100 })).rejects.toMatchObject(
      {
        status: 409,
      },
    );
  });

  it("refuses with 'This offer changed' when the amount or version differs, or the offer expired, and changes nothing", async () => {
    const seller = await createTrader(t, "Sam Seller");
    const buyer = await createTrader(t, "Bea Buyer");
    const listing = await createOfferableListing(t, seller);
    const { offerId, row } = await offerOn(t, buyer, listing.id, 4000);
    for (const shown of [
      { amountCents: 4100, version: row.version },
      { amountCents: 4000, version: row.version + 1 },
    ]) {
      await expect(acceptOffer(t.ctx, seller.viewer, offerId, shown)).rejects.toMatchObject({
        status: 409,
        message: TRADE_MESSAGES.offerChanged,
      });
    }
    await expect(
      acceptOffer(t.ctx, seller.viewer, offerId, { amountCents: "4000", version: 1 }),
    ).rejects.toMatchObject({ status: 400 });
    t.clock.advance(24 * 60 * 60 * 1000);
    await expect(
      acceptOffer(t.ctx, seller.viewer, offerId, { amountCents: 4000, version: row.version }),
    ).rejects.toMatchObject({ message: TRADE_MESSAGES.offerChanged });
    expect(await listingStatus(t, listing.id)).toBe("available");
    expect(await t.ctx.db.select().from(deals).where(eq(deals.postId, listing.id))).toHaveLength(0);
  });

  it("ten accepts at the same instant make exactly one deal", async () => {
    const seller = await createTrader(t, "Sam Seller");
    const listing = await createOfferableListing(t, seller);
    const made = [];
    for (let i = 0; i < 10; i++) {
      const buyer = await createTrader(t, `Buyer ${"ABCDEFGHIJ"[i]}`);
      made.push(await offerOn(t, buyer, listing.id, 3000 + i));
    }
    const results = await Promise.allSettled(
      made.map((offer) =>
        acceptOffer(t.ctx, seller.viewer, offer.offerId, { amountCents: offer.row.amountCents, version: 1 }),
      ),
    );
    const won = results.filter((result) => result.status === "fulfilled");
    expect(won).toHaveLength(1);
    for (const result of results) {
      if (result.status === "rejected")
        expect(result.reason).toMatchObject({ message: TRADE_MESSAGES.offerChanged });
    }
    const active = await t.ctx.db
      .select()
      .from(deals)
      .where(and(eq(deals.postId, listing.id), eq(deals.state, "active")));
    expect(active).toHaveLength(1);
    const states = await Promise.all(made.map(async (offer) => (await offerRow(t, offer.offerId)).state));
    expect(states.filter((state) => state === "accepted")).toHaveLength(1);
    expect(states.filter((state) => state === "closed")).toHaveLength(9);
  });

  it("the database's one-active-deal guard is answered 'This offer changed', not a failure", async () => {
    const seller = await createTrader(t, "Sam Seller");
    const ana = await createTrader(t, "Ana Buyer");
    const ben = await createTrader(t, "Ben Buyer");
    const listing = await createOfferableListing(t, seller);
    const anaOffer = await offerOn(t, ana, listing.id, 4000);
    await acceptOffer(t.ctx, seller.viewer, anaOffer.offerId, { amountCents: 4000, version: 1 });
    // A listing whose status was put back by hand while its deal stands (no product path does this).
    await t.ctx.db.update(posts).set({ listingStatus: "available" }).where(eq(posts.id, listing.id));
    const benOffer = await offerOn(t, ben, listing.id, 3000);
    await expect(
      acceptOffer(t.ctx, seller.viewer, benOffer.offerId, { amountCents: 3000, version: 1 }),
    ).rejects.toMatchObject({ status: 409, message: TRADE_MESSAGES.offerChanged });
    expect((await offerRow(t, benOffer.offerId)).state).toBe("pending");
  });
});
