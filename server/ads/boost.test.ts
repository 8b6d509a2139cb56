import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestMember, createTestPost, type TestMember } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { ads, checkoutSessions, payments } from "../db/schema";
import { setListingStatus } from "../posts/listing-status";
import { boostPost } from "./boost";
import { AD_MESSAGES } from "./errors.shared";
import { payTestCheckout } from "./fulfilment";
import { DAY_MS } from "./refunds";

let t: TestContext;
let owner: TestMember;
let postId: string;
const ORIGIN = "http://ou.localhost:3000";

beforeEach(async () => {
  t = await createTestContext();
  owner = await createTestMember(t);
  postId = (await createTestPost(t, owner.viewer, { text: "Desk lamp, $15" })).id;
});
afterEach(async () => {
  await t.close();
});

const ref = () => ({ postId, campusId: "ou" });
const websiteForm = (extra: Record<string, unknown> = {}) => ({
  goal: "website",
  websiteUrl: "https://www.example.com",
  buttonLabel: "Shop Now",
  title: "Lamp sale",
  days: "4",
  ...extra,
});

async function boost(extra: Record<string, unknown> = {}) {
  return boostPost(t.ctx, owner.viewer, ref(), websiteForm(extra), ORIGIN);
}

async function sessionOf(adId: string): Promise<string> {
  const [ad] = await t.ctx.db.select().from(ads).where(eq(ads.id, adId));
  if (!ad?.checkoutSessionId) throw new Error("no session");
  return ad.checkoutSessionId;
}

/** Boosts and pays through the test checkout (the signed event through the webhook handler). */
async function runningAd(extra: Record<string, unknown> = {}): Promise<string> {
  const { adId } = await boost(extra);
  await payTestCheckout(t.ctx, owner.viewer, {
    sessionId: await sessionOf(adId),
    card: "4242 4242 4242 4242",
  });
  return adId;
}

async function adRow(adId: string) {
  const [ad] = await t.ctx.db.select().from(ads).where(eq(ads.id, adId));
  return ad;
}

describe("boostPost (spec 2 §5 Boost, §4 creation sets checkout)", () => {
  it("refuses a missing website, a partial URL and a missing button label with the spec's messages", async () => {
    await expect(boost({ websiteUrl: "" })).rejects.toMatchObject({
      message: AD_MESSAGES.websiteRequired,
      field: "websiteUrl",
    });
    await expect(boost({ websiteUrl: "example.com" })).rejects.toMatchObject({
      message: AD_MESSAGES.websiteInvalid,
    });
    await expect(boost({ websiteUrl: "http://www.example.com" })).rejects.toMatchObject({
      message: AD_MESSAGES.websiteInvalid,
    });
    await expect(boost({ buttonLabel: "" })).rejects.toMatchObject({ message: AD_MESSAGES.labelRequired });
    await expect(boost({ title: "x".repeat(51) })).rejects.toMatchObject({
      message: AD_MESSAGES.titleTooLong,
    });
    expect(await t.ctx.db.select().from(ads)).toHaveLength(0);
  });

  it("writes the ad in checkout for 500 × days cents and a 30-minute session", async () => {
    const { adId, checkoutUrl } = await boost({ days: "7" });
    const ad = await adRow(adId);
    expect(ad).toMatchObject({
      status: "checkout",
      days: 7,
      amountBudgeted: 3500,
      ctaType: "website",
      ctaLabel: "Shop Now",
    });
    expect(checkoutUrl).toMatch(new RegExp(`^${ORIGIN}/checkout/test/cs_test_`));
    const [session] = await t.ctx.db.select().from(checkoutSessions);
    expect(session?.amountTotal).toBe(3500);
    expect((session?.expiresAt.getTime() ?? 0) - t.clock.now().getTime()).toBe(30 * 60 * 1000);
    expect(session?.successUrl).toBe(`${ORIGIN}/post/${postId}/boost/success?session_id=${session?.id}`);
  });

  it("pays 30 days ahead for 'run until pause' (decision 0271) and labels message goals itself", async () => {
    const { adId } = await boostPost(
      t.ctx,
      owner.viewer,
      ref(),
      { goal: "message", runUntilPause: "on", days: "3" },
      ORIGIN,
    );
    expect(await adRow(adId)).toMatchObject({
      runUntilPause: true,
      days: 30,
      amountBudgeted: 15000,
      ctaLabel: "Send Message",
      ctaUrl: null,
    });
  });

  it("refuses visitors, other users' posts and a post already boosted", async () => {
    await expect(boostPost(t.ctx, null, ref(), websiteForm(), ORIGIN)).rejects.toMatchObject({
      message: AD_MESSAGES.boostRefused,
    });
    const other = await createTestMember(t);
    await expect(boostPost(t.ctx, other.viewer, ref(), websiteForm(), ORIGIN)).rejects.toMatchObject({
      message: AD_MESSAGES.boostRefused,
    });
    await runningAd();
    await expect(boost()).rejects.toMatchObject({ message: AD_MESSAGES.alreadyBoosted });
  });

  it("replaces an unpaid checkout of the same post", async () => {
    await boost();
    const { adId } = await boost();
    const rows = await t.ctx.db.select().from(ads);
    expect(rows.map((row) => row.id)).toEqual([adId]);
  });
});

describe("sold listings (decisions 0170, 0272)", () => {
  it("marking the post sold ends its ad and refunds the unused days; a sold post cannot be boosted", async () => {
    const adId = await runningAd();
    t.clock.advance(DAY_MS / 2);
    await setListingStatus(t.ctx, owner.viewer, { postId, status: "sold" });
    expect((await adRow(adId))?.status).toBe("stopped");
    const rows = await t.ctx.db.select().from(payments).where(eq(payments.kind, "refund"));
    expect(rows.map((row) => [row.amount, row.status])).toEqual([[1500, "succeeded"]]);
    await expect(boost()).rejects.toMatchObject({
      code: "not-boostable",
      message: "Sold listings can't be boosted.",
    });
    await setListingStatus(t.ctx, owner.viewer, { postId, status: "available" });
    await expect(boost()).resolves.toMatchObject({ adId: expect.any(String) });
  });
});

describe("reserved listings (decision 0442)", () => {
  it("a reserved listing cannot be boosted, with its own reason; available again, it can", async () => {
    await setListingStatus(t.ctx, owner.viewer, { postId, status: "reserved" });
    await expect(boost()).rejects.toMatchObject({
      code: "not-boostable",
      message: "Reserved listings can't be boosted.",
    });
    await setListingStatus(t.ctx, owner.viewer, { postId, status: "available" });
    await expect(boost()).resolves.toMatchObject({ adId: expect.any(String) });
  });
});
