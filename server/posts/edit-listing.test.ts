import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestComment,
  createTestMember,
  createTestPost,
  pngFile,
  viewerOf,
} from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { createOfferableListing, createTrader, offerOn, offerRow } from "../../tests/support/trade-factories";
import { blockUser } from "../chats/blocks";
import { notifications, postMedia, posts, priceDrops, searchTerms, user } from "../db/schema";
import { deliverDueMail } from "../mail/outbox";
import { mailComposers } from "../mail/worker";
import { listNotifications, updateEmailPreferences } from "../notifications/notifications";
import { EDIT_INTERVAL_MS, type EditListingInput, editListing } from "./edit-listing";
import { PRICE_DROP_NOTICES_PER_DAY } from "./price-drops";
import { plainTextToRichText } from "./rich-text.shared";
import { toggleSave } from "./saves";
import { EDIT_MESSAGES, POST_MESSAGES } from "./schemas";

// Decision 0640: editing a listing and price drops (docs/product/listing-essentials.md).

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const textOf = (plain: string) => JSON.stringify(plainTextToRichText(plain));

/** The edit form as the composer sends it: every field, as a post's page would prefill it. */
function form(overrides: Partial<EditListingInput> & { price?: string; priceTerms?: string } = {}) {
  const { price, priceTerms, ...rest } = overrides;
  return {
    campusId: "ou",
    text: textOf("Mini fridge, barely used"),
    category: null,
    listing: { price: price ?? "50", priceTerms: priceTerms ?? "offers", condition: "good" },
    ...rest,
  } satisfies EditListingInput;
}

async function row(postId: string) {
  const [found] = await t.ctx.db.select().from(posts).where(eq(posts.id, postId));
  if (!found) throw new Error("no post");
  return found;
}

async function priceDropNotices(userId: string) {
  return t.ctx.db
    .select({ id: notifications.id, priceDropId: notifications.priceDropId })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.type, "price drop")));
}

function later() {
  t.clock.advance(EDIT_INTERVAL_MS + 1000);
}

describe("editing a listing", () => {
  it("changes text, price and category for the owner; 'Edited' gets the time; search words follow", async () => {
    const seller = await createTrader(t, "Sam Seller");
    const { id } = await createOfferableListing(t, seller);
    expect((await row(id)).editedAt).toBeNull();
    const result = await editListing(
      t.ctx,
      seller.viewer,
      id,
      form({ text: textOf("Compact fridge with freezer"), price: "45", category: "household" }),
    );
    expect(result).toMatchObject({ id, changed: true });
    const after = await row(id);
    expect(after).toMatchObject({
      textPlain: "Compact fridge with freezer",
      priceCents: 4500,
      category: "household",
    });
    expect(after.editedAt?.toISOString()).toBe(t.clock.now().toISOString());
    const terms = await t.ctx.db
      .select({ term: searchTerms.term })
      .from(searchTerms)
      .where(eq(searchTerms.campusId, "ou"));
    expect(terms.map((term) => term.term)).toContain("freezer");
  });

  it("answers not found to anyone but the owner, and to a comment or a bad id; nothing changes", async () => {
    const seller = await createTrader(t, "Nia Owner");
    const other = await createTrader(t, "Oli Other");
    const { id } = await createOfferableListing(t, seller);
    await expect(editListing(t.ctx, other.viewer, id, form({ price: "1" }))).rejects.toMatchObject({
      code: "not-found",
      status: 404,
    });
    await expect(editListing(t.ctx, seller.viewer, "not-a-uuid", form())).rejects.toMatchObject({
      code: "not-found",
    });
    await expect(
      editListing(t.ctx, seller.viewer, id, { ...form({ price: "1" }), campusId: "other" }),
    ).rejects.toMatchObject({ code: "not-found" });
    expect(await row(id)).toMatchObject({ priceCents: 5000, editedAt: null });
  });

  it("refuses bad input as posting does and changes nothing", async () => {
    const seller = await createTrader(t, "Bea Bad");
    const { id } = await createOfferableListing(t, seller);
    await expect(editListing(t.ctx, seller.viewer, id, form({ price: "forty" }))).rejects.toMatchObject({
      code: "invalid-input",
    });
    await expect(
      editListing(t.ctx, seller.viewer, id, form({ text: textOf("x".repeat(501)) })),
    ).rejects.toMatchObject({ code: "too-many-characters" });
    await expect(
      editListing(t.ctx, seller.viewer, id, form({ category: "spaceships" })),
    ).rejects.toMatchObject({
      message: POST_MESSAGES.unknownCategory,
    });
    await expect(editListing(t.ctx, seller.viewer, id, form({ text: null }))).rejects.toMatchObject({
      code: "empty",
    });
    expect(await row(id)).toMatchObject({
      textPlain: "Mini fridge, barely used",
      priceCents: 5000,
      editedAt: null,
    });
  });

  it("refuses a suspended owner as posting does", async () => {
    const seller = await createTrader(t, "Sue Suspended");
    const { id } = await createOfferableListing(t, seller);
    await t.ctx.db
      .update(user)
      .set({ suspendedUntil: new Date(t.clock.now().getTime() + 86_400_000) })
      .where(eq(user.id, seller.id));
    await expect(
      editListing(t.ctx, await viewerOf(t, seller.id), id, form({ price: "10" })),
    ).rejects.toMatchObject({ name: "ParticipationRefused" });
    expect((await row(id)).priceCents).toBe(5000);
  });

  it("refuses a hidden listing (409) and treats a removed one as not found", async () => {
    const seller = await createTrader(t, "Hal Hidden");
    const { id } = await createOfferableListing(t, seller);
    await t.ctx.db.update(posts).set({ moderationState: "hidden" }).where(eq(posts.id, id));
    await expect(editListing(t.ctx, seller.viewer, id, form({ price: "10" }))).rejects.toMatchObject({
      status: 409,
      message: EDIT_MESSAGES.underReview,
    });
    await t.ctx.db.update(posts).set({ moderationState: "removed" }).where(eq(posts.id, id));
    await expect(editListing(t.ctx, seller.viewer, id, form({ price: "10" }))).rejects.toMatchObject({
      code: "not-found",
    });
  });

  it("adds and removes photos within 10, in order, and keeps comments", async () => {
    const seller = await createTestMember(t);
    const { id } = await createTestPost(t, seller.viewer, {
      text: "Desk lamp",
      files: [await pngFile("a.png"), await pngFile("b.png", { width: 40, height: 30 })],
      listing: { price: "15" },
    });
    const gallery = () =>
      t.ctx.db.select().from(postMedia).where(eq(postMedia.postId, id)).orderBy(asc(postMedia.imgOrder));
    const [first, second] = await gallery();
    if (!first || !second) throw new Error("two photos expected");
    const buyer = await createTestMember(t);
    const comment = await createTestComment(t, buyer.viewer, id, { text: "Does it dim?" });
    const base = { campusId: "ou", text: textOf("Desk lamp"), listing: { price: "15" } };
    await editListing(t.ctx, seller.viewer, id, {
      ...base,
      removeMedia: [first.id],
      files: [await pngFile("c.png", { width: 30, height: 30 })],
    });
    const after = await gallery();
    expect(after.map((file) => [file.id === second.id, file.imgOrder])).toEqual([
      [true, 1],
      [false, 2],
    ]);
    expect((await row(id)).imgCount).toBe(2);
    expect((await row(comment.id)).textPlain).toBe("Does it dim?");
    expect(t.storage.objects.has(first.imgPath)).toBe(false);
    expect(t.storage.objects.has(second.imgPath)).toBe(true);

    later();
    const eleven = await Promise.all(Array.from({ length: 9 }, (_, n) => pngFile(`x${n}.png`)));
    await expect(editListing(t.ctx, seller.viewer, id, { ...base, files: eleven })).rejects.toMatchObject({
      code: "too-many-files",
      message: POST_MESSAGES.tooManyFiles,
    });
    expect((await gallery()).length).toBe(2);
  });

  it("a form sent unchanged writes nothing; edits come at most every few seconds", async () => {
    const seller = await createTrader(t, "Ugo Unchanged");
    const { id } = await createOfferableListing(t, seller);
    expect(await editListing(t.ctx, seller.viewer, id, form())).toMatchObject({ changed: false });
    expect((await row(id)).editedAt).toBeNull();
    await editListing(t.ctx, seller.viewer, id, form({ price: "49" }));
    await expect(editListing(t.ctx, seller.viewer, id, form({ price: "48" }))).rejects.toMatchObject({
      code: "rate-limited",
      message: EDIT_MESSAGES.tooSoon,
    });
    later();
    await editListing(t.ctx, seller.viewer, id, form({ price: "48" }));
    expect((await row(id)).priceCents).toBe(4800);
  });

  it("closes pending offers with a message when the price changes, not when only the text does", async () => {
    const seller = await createTrader(t, "Oda Offers");
    const buyer = await createTrader(t, "Bo Buyer");
    const { id } = await createOfferableListing(t, seller);
    const offer = await offerOn(t, buyer, id, 4000);
    await editListing(t.ctx, seller.viewer, id, form({ text: textOf("Mini fridge, works great") }));
    expect((await offerRow(t, offer.offerId)).state).toBe("pending");
    later();
    await editListing(
      t.ctx,
      seller.viewer,
      id,
      form({ text: textOf("Mini fridge, works great"), price: "60" }),
    );
    expect((await offerRow(t, offer.offerId)).state).toBe("closed");
    const told = await t.ctx.db
      .select({ event: notifications.event })
      .from(notifications)
      .where(and(eq(notifications.userId, buyer.id), eq(notifications.type, "offer")));
    expect(told.map((notice) => notice.event)).toContain("voided");
  });
});

describe("price drops", () => {
  it("price-drop notices once per drop, to savers only, worded with the title and both prices", async () => {
    const seller = await createTrader(t, "Pat Price");
    const saver = await createTrader(t, "Sol Saver");
    const bystander = await createTrader(t, "Bex Bystander");
    const { id } = await createOfferableListing(t, seller);
    await toggleSave(t.ctx, saver.viewer, id);
    await toggleSave(t.ctx, seller.viewer, id);

    // Up: nobody hears.
    await editListing(t.ctx, seller.viewer, id, form({ price: "55" }));
    expect(await priceDropNotices(saver.id)).toEqual([]);

    later();
    await editListing(t.ctx, seller.viewer, id, form({ price: "40" }));
    const first = await priceDropNotices(saver.id);
    expect(first).toHaveLength(1);
    const [drop] = await t.ctx.db.select().from(priceDrops).where(eq(priceDrops.postId, id));
    expect(drop).toMatchObject({ fromCents: 5500, toCents: 4000 });
    expect(first[0]?.priceDropId).toBe(drop?.id);
    const page = await listNotifications(t.ctx, saver.viewer);
    expect(page.items[0]?.text).toBe("Price drop: Mini fridge, barely used is now $40 (was $55)");

    // The same price again, or a change of terms only: no new drop.
    later();
    await editListing(t.ctx, seller.viewer, id, form({ price: "40", priceTerms: "firm" }));
    expect(await priceDropNotices(saver.id)).toHaveLength(1);

    // A second drop is a second notice; Free counts as one.
    later();
    await editListing(t.ctx, seller.viewer, id, form({ priceTerms: "free" }));
    expect(await priceDropNotices(saver.id)).toHaveLength(2);
    expect(await priceDropNotices(seller.id)).toEqual([]);
    expect(await priceDropNotices(bystander.id)).toEqual([]);
  });

  it("blocked savers are not told, either way; a sold listing tells nobody (a hidden one cannot be edited)", async () => {
    const seller = await createTrader(t, "Kim Keeper");
    const blocker = await createTrader(t, "Bly Blocker");
    const blocked = await createTrader(t, "Bud Blocked");
    const { id } = await createOfferableListing(t, seller);
    await toggleSave(t.ctx, blocker.viewer, id);
    await toggleSave(t.ctx, blocked.viewer, id);
    await blockUser(t.ctx, blocker.viewer, seller.id);
    await blockUser(t.ctx, seller.viewer, blocked.id);
    await editListing(t.ctx, seller.viewer, id, form({ price: "30" }));
    expect(await priceDropNotices(blocker.id)).toEqual([]);
    expect(await priceDropNotices(blocked.id)).toEqual([]);

    const fan = await createTrader(t, "Fay Fan");
    const sold = await createOfferableListing(t, seller);
    await toggleSave(t.ctx, fan.viewer, sold.id);
    await t.ctx.db.update(posts).set({ listingStatus: "sold" }).where(eq(posts.id, sold.id));
    await editListing(t.ctx, seller.viewer, sold.id, form({ price: "20" }));
    expect(await priceDropNotices(fan.id)).toEqual([]);
  });

  it(`tells at most ${PRICE_DROP_NOTICES_PER_DAY} drops of one listing a day`, async () => {
    const seller = await createTrader(t, "Dee Dropper");
    const saver = await createTrader(t, "Sy Saver");
    const { id } = await createOfferableListing(t, seller, { price: "100" });
    await toggleSave(t.ctx, saver.viewer, id);
    for (const price of ["90", "80", "70", "60"]) {
      later();
      await editListing(t.ctx, seller.viewer, id, form({ price }));
    }
    expect(await priceDropNotices(saver.id)).toHaveLength(PRICE_DROP_NOTICES_PER_DAY);
    t.clock.advance(24 * 60 * 60 * 1000);
    await editListing(t.ctx, seller.viewer, id, form({ price: "50" }));
    expect(await priceDropNotices(saver.id)).toHaveLength(PRICE_DROP_NOTICES_PER_DAY + 1);
  });
});

describe("the price drop e-mail", () => {
  it("says the drop in the batched e-mail, and 'Price drops' off in the settings stops it", async () => {
    const seller = await createTrader(t, "Mo Mailer");
    const wants = await createTrader(t, "Wes Wants");
    const declines = await createTrader(t, "Dot Declines");
    await updateEmailPreferences(t.ctx, declines.viewer, {
      enabled: true,
      comments: true,
      saves: true,
      messages: true,
      priceDrops: false,
    });
    const { id } = await createOfferableListing(t, seller);
    await toggleSave(t.ctx, wants.viewer, id);
    await toggleSave(t.ctx, declines.viewer, id);
    t.mail.sent.length = 0;
    later();
    await editListing(t.ctx, seller.viewer, id, form({ price: "12.50" }));
    t.clock.advance(60 * 60 * 1000);
    await deliverDueMail(t.ctx, 50, mailComposers);
    // Notification e-mails only (the sign-up codes of the test's members wait in the outbox too).
    const notices = t.mail.sent.filter((mail) => mail.headers?.["List-Unsubscribe"]);
    const words = "Price drop: Mini fridge, barely used is now $12.50 (was $50)";
    const toWants = notices.filter((mail) => mail.to === wants.email);
    expect(toWants.map((mail) => mail.subject)).toContain(words);
    expect(notices.filter((mail) => mail.to === declines.email).map((mail) => mail.subject)).toEqual([]);
    // The notice itself is still in the app for the one who turned the e-mail off.
    expect(await priceDropNotices(declines.id)).toHaveLength(1);
  });
});
