import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestComment, createTestMember, createTestPost, pngFile } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { listingWatches, posts } from "../db/schema";
import { listFeed, listProfilePosts } from "./feed";
import { LISTING_EXPIRY_DAYS, LISTING_MESSAGES } from "./listing.shared";
import {
  assertListingBoostable,
  isWatching,
  renewListing,
  setListingStatus,
  unwatchListing,
  watchListing,
} from "./listing-status";
import { getPost } from "./posts";

// Decision 0170–0172: listing fields, status, expiry, watches, and the boost rule.

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const DAY = 24 * 60 * 60 * 1000;

async function feedIds(
  campusId: string,
  filters: { free?: boolean; showSold?: boolean; media?: boolean } = {},
) {
  return (await listFeed(t.ctx, null, { campusId, ...filters })).items.map((item) => item.id);
}

describe("a post's listing fields", () => {
  it("are stored and shown: price in cents, terms, condition, kind; a post without them stays a post", async () => {
    const seller = await createTestMember(t, { campusId: "ou" });
    const { id } = await createTestPost(t, seller.viewer, {
      text: "Mini fridge",
      listing: { price: "$40", priceTerms: "offers", condition: "like_new" },
    });
    const post = await getPost(t.ctx, null, { postId: id, campusId: "ou" });
    expect(post?.listing).toEqual({
      priceCents: 4000,
      priceTerms: "offers",
      condition: "like_new",
      kind: "selling",
      status: "available",
      expired: false,
    });
    const plain = await createTestPost(t, seller.viewer, { text: "Just saying hi" });
    expect((await getPost(t.ctx, null, { postId: plain.id, campusId: "ou" }))?.listing).toMatchObject({
      priceCents: null,
      priceTerms: null,
      condition: null,
      kind: "selling",
    });
  });

  it("'free' is a price of 0 without terms; a Wanted post needs no price", async () => {
    const member = await createTestMember(t, { campusId: "ou" });
    const free = await createTestPost(t, member.viewer, { listing: { price: "12", priceTerms: "free" } });
    const wanted = await createTestPost(t, member.viewer, {
      text: "Looking for a mini fridge, up to $40",
      listing: { listingKind: "wanted" },
    });
    const [freeRow] = await t.ctx.db.select().from(posts).where(eq(posts.id, free.id));
    expect(freeRow).toMatchObject({ priceCents: 0, priceTerms: null });
    const [wantedRow] = await t.ctx.db.select().from(posts).where(eq(posts.id, wanted.id));
    expect(wantedRow).toMatchObject({ listingKind: "wanted", priceCents: null });
  });

  it("refuses a price that is not one, an unknown condition or kind, and writes nothing", async () => {
    const member = await createTestMember(t, { campusId: "ou" });
    await expect(createTestPost(t, member.viewer, { listing: { price: "forty" } })).rejects.toMatchObject({
      code: "invalid-input",
      message: LISTING_MESSAGES.badPrice,
    });
    await expect(createTestPost(t, member.viewer, { listing: { price: "200000" } })).rejects.toMatchObject({
      message: LISTING_MESSAGES.priceTooHigh,
    });
    await expect(createTestPost(t, member.viewer, { listing: { condition: "mint" } })).rejects.toMatchObject({
      message: LISTING_MESSAGES.badCondition,
    });
    await expect(
      createTestPost(t, member.viewer, { listing: { listingKind: "trading" } }),
    ).rejects.toMatchObject({ code: "invalid-input" });
    expect(await t.ctx.db.select().from(posts).where(eq(posts.authorId, member.id))).toHaveLength(0);
  });
});

describe("status: Available → Reserved → Sold and back, by the owner only", () => {
  it("moves through the states; the same state again changes nothing; sold → reserved is refused", async () => {
    const seller = await createTestMember(t, { campusId: "ou" });
    const { id } = await createTestPost(t, seller.viewer, { listing: { price: "25" } });
    expect(await setListingStatus(t.ctx, seller.viewer, { postId: id, status: "reserved" })).toEqual({
      status: "reserved",
    });
    expect(await setListingStatus(t.ctx, seller.viewer, { postId: id, status: "reserved" })).toEqual({
      status: "reserved",
    });
    await setListingStatus(t.ctx, seller.viewer, { postId: id, status: "sold" });
    await expect(
      setListingStatus(t.ctx, seller.viewer, { postId: id, status: "reserved" }),
    ).rejects.toMatchObject({
      code: "listing-state",
      status: 409,
      message: LISTING_MESSAGES.soldCannotBeReserved,
    });
    await setListingStatus(t.ctx, seller.viewer, { postId: id, status: "available" });
    expect((await getPost(t.ctx, null, { postId: id, campusId: "ou" }))?.listing.status).toBe("available");
  });

  it("refuses anyone but the owner, whatever id they send, and comments and unknown states", async () => {
    const seller = await createTestMember(t, { campusId: "ou" });
    const other = await createTestMember(t, { campusId: "ou" });
    const { id } = await createTestPost(t, seller.viewer, { listing: { price: "25" } });
    await expect(setListingStatus(t.ctx, other.viewer, { postId: id, status: "sold" })).rejects.toMatchObject(
      {
        code: "forbidden",
        status: 403,
      },
    );
    await expect(setListingStatus(t.ctx, null, { postId: id, status: "sold" })).rejects.toMatchObject({
      refusal: { kind: "sign-in" },
    });
    const reply = await createTestComment(t, seller.viewer, id);
    await expect(
      setListingStatus(t.ctx, seller.viewer, { postId: reply.id, status: "sold" }),
    ).rejects.toMatchObject({ code: "forbidden" });
    await expect(
      setListingStatus(t.ctx, seller.viewer, { postId: id, status: "gone" }),
    ).rejects.toMatchObject({
      code: "invalid-input",
    });
    await expect(
      setListingStatus(t.ctx, seller.viewer, { postId: "not-a-uuid", status: "sold" }),
    ).rejects.toMatchObject({ code: "not-found" });
    const [row] = await t.ctx.db.select({ status: posts.listingStatus }).from(posts).where(eq(posts.id, id));
    expect(row?.status).toBe("available");
  });
});

describe("the feed's default view", () => {
  it("leaves sold listings out of home and media; 'Show sold' brings them back; the profile keeps them", async () => {
    const seller = await createTestMember(t, { campusId: "ut" });
    const photo = await pngFile();
    const sold = await createTestPost(t, seller.viewer, { listing: { price: "40" }, files: [photo] });
    t.clock.advance(1000);
    const reserved = await createTestPost(t, seller.viewer, {
      listing: { price: "30" },
      files: [await pngFile()],
    });
    await setListingStatus(t.ctx, seller.viewer, { postId: sold.id, status: "sold" });
    await setListingStatus(t.ctx, seller.viewer, { postId: reserved.id, status: "reserved" });

    expect(await feedIds("ut")).toEqual([reserved.id]);
    expect(await feedIds("ut", { media: true })).toEqual([reserved.id]);
    expect(await feedIds("ut", { showSold: true })).toEqual([reserved.id, sold.id]);
    expect(await feedIds("ut", { media: true, showSold: true })).toEqual([reserved.id, sold.id]);
    const profile = await listProfilePosts(t.ctx, null, { campusId: "ut", userId: seller.id });
    expect(profile.items.map((item) => item.id)).toEqual([reserved.id, sold.id]);
    expect(profile.items[1]?.listing.status).toBe("sold");
  });

  it("'Free' keeps only listings priced 0", async () => {
    const member = await createTestMember(t, { campusId: "smu" });
    t.clock.advance(1000);
    const free = await createTestPost(t, member.viewer, { listing: { price: "0" } });
    t.clock.advance(1000);
    await createTestPost(t, member.viewer, { listing: { price: "5" } });
    t.clock.advance(1000);
    await createTestPost(t, member.viewer, { text: "No price" });
    expect(await feedIds("smu", { free: true })).toEqual([free.id]);
    expect(await feedIds("smu")).toHaveLength(3);
  });
});

describe("expiry and renewal (decision 0171)", () => {
  it("an unrenewed listing leaves the feed after the constant's days, stays on the profile and by link", async () => {
    const seller = await createTestMember(t, { campusId: "uf" });
    const listing = await createTestPost(t, seller.viewer, { listing: { price: "15", condition: "good" } });
    t.clock.advance(1000);
    const plain = await createTestPost(t, seller.viewer, { text: "A plain post of the spec" });
    t.clock.advance((LISTING_EXPIRY_DAYS + 1) * DAY);

    expect(await feedIds("uf")).toEqual([plain.id]);
    const profile = await listProfilePosts(t.ctx, seller.viewer, { campusId: "uf", userId: seller.id });
    expect(profile.items.map((item) => [item.id, item.listing.expired])).toEqual([
      [plain.id, false],
      [listing.id, true],
    ]);
    expect((await getPost(t.ctx, null, { postId: listing.id, campusId: "uf" }))?.listing.expired).toBe(true);

    // Renewing bumps it back to the top of the feed.
    const { lastModified } = await renewListing(t.ctx, seller.viewer, listing.id);
    expect(lastModified).toEqual(t.clock.now());
    expect(await feedIds("uf")).toEqual([listing.id, plain.id]);
    expect((await getPost(t.ctx, null, { postId: listing.id, campusId: "uf" }))?.listing.expired).toBe(false);
  });

  it("refuses to renew a fresh or a sold listing, or someone else's", async () => {
    const seller = await createTestMember(t, { campusId: "uf" });
    const other = await createTestMember(t, { campusId: "uf" });
    const fresh = await createTestPost(t, seller.viewer, { listing: { price: "15" } });
    await expect(renewListing(t.ctx, seller.viewer, fresh.id)).rejects.toMatchObject({
      code: "listing-state",
      message: LISTING_MESSAGES.notExpired,
    });
    const sold = await createTestPost(t, seller.viewer, { listing: { price: "15" } });
    await setListingStatus(t.ctx, seller.viewer, { postId: sold.id, status: "sold" });
    t.clock.advance((LISTING_EXPIRY_DAYS + 1) * DAY);
    await expect(renewListing(t.ctx, seller.viewer, sold.id)).rejects.toMatchObject({
      code: "listing-state",
    });
    await expect(renewListing(t.ctx, other.viewer, fresh.id)).rejects.toMatchObject({ code: "forbidden" });
  });
});

describe("sold listings cannot be boosted (read by the ads issue)", () => {
  it("assertListingBoostable refuses a reserved or sold listing and lets an available one through", async () => {
    const seller = await createTestMember(t, { campusId: "ucla" });
    const { id } = await createTestPost(t, seller.viewer, { listing: { price: "15" } });
    await expect(assertListingBoostable(t.ctx, id)).resolves.toBeUndefined();
    // Decision 0442: a reserved listing's buyer is found, so it is not boosted either.
    await setListingStatus(t.ctx, seller.viewer, { postId: id, status: "reserved" });
    await expect(assertListingBoostable(t.ctx, id)).rejects.toMatchObject({
      code: "listing-state",
      message: LISTING_MESSAGES.reservedCannotBeBoosted,
    });
    await setListingStatus(t.ctx, seller.viewer, { postId: id, status: "sold" });
    await expect(assertListingBoostable(t.ctx, id)).rejects.toMatchObject({
      code: "listing-state",
      status: 409,
      message: LISTING_MESSAGES.soldCannotBeBoosted,
    });
    await expect(assertListingBoostable(t.ctx, "7b1d0f5e-1c1b-4d69-9a41-0d5f1d2b9c11")).rejects.toMatchObject(
      {
        code: "not-found",
      },
    );
  });
});

describe("'Notify me if it's available again'", () => {
  it("stores one watch per person on a reserved listing, and drops them when it is available again", async () => {
    const seller = await createTestMember(t, { campusId: "duke" });
    const buyer = await createTestMember(t, { campusId: "duke" });
    const second = await createTestMember(t, { campusId: "duke" });
    const { id } = await createTestPost(t, seller.viewer, { listing: { price: "15" } });

    await expect(watchListing(t.ctx, buyer.viewer, id)).rejects.toMatchObject({
      message: LISTING_MESSAGES.watchOnlyReserved,
    });
    await setListingStatus(t.ctx, seller.viewer, { postId: id, status: "reserved" });
    await watchListing(t.ctx, buyer.viewer, id);
    await watchListing(t.ctx, buyer.viewer, id);
    await watchListing(t.ctx, second.viewer, id);
    await expect(watchListing(t.ctx, seller.viewer, id)).rejects.toMatchObject({
      message: LISTING_MESSAGES.watchOwn,
    });
    await expect(watchListing(t.ctx, null, id)).rejects.toMatchObject({ refusal: { kind: "sign-in" } });
    expect(await t.ctx.db.select().from(listingWatches).where(eq(listingWatches.postId, id))).toHaveLength(2);
    expect(await isWatching(t.ctx, buyer.id, id)).toBe(true);

    await unwatchListing(t.ctx, second.viewer, id);
    expect(await isWatching(t.ctx, second.id, id)).toBe(false);

    // Sold keeps the watch ('available again' has not happened yet); available answers it.
    await setListingStatus(t.ctx, seller.viewer, { postId: id, status: "sold" });
    expect(await isWatching(t.ctx, buyer.id, id)).toBe(true);
    await setListingStatus(t.ctx, seller.viewer, { postId: id, status: "available" });
    expect(await t.ctx.db.select().from(listingWatches).where(eq(listingWatches.postId, id))).toHaveLength(0);
  });

  it("refuses a watch on another campus's listing", async () => {
    const seller = await createTestMember(t, { campusId: "duke" });
    const visitor = await createTestMember(t, { campusId: "mit" });
    const { id } = await createTestPost(t, seller.viewer, { listing: { price: "15" } });
    await setListingStatus(t.ctx, seller.viewer, { postId: id, status: "reserved" });
    await expect(watchListing(t.ctx, visitor.viewer, id)).rejects.toMatchObject({ code: "other-campus" });
  });
});
