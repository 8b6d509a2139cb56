import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestMember, createTestPost, type TestMember } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { ads, postAnalytics } from "../db/schema";
import { boostPost, DAY_MS, getOwnAd, stopAd } from "./ads";
import { recordAnalytics, sessionKeyOf } from "./analytics";
import { payTestCheckout } from "./fulfilment";

let t: TestContext;
let seller: TestMember;
let postId: string;
let adId: string;

beforeEach(async () => {
  t = await createTestContext();
  seller = await createTestMember(t);
  postId = (await createTestPost(t, seller.viewer)).id;
  ({ adId } = await boostPost(
    t.ctx,
    seller.viewer,
    { postId, campusId: "ou" },
    { goal: "profile" },
    "http://ou.localhost:3000",
  ));
  const [ad] = await t.ctx.db.select().from(ads).where(eq(ads.id, adId));
  await payTestCheckout(t.ctx, seller.viewer, {
    sessionId: ad?.checkoutSessionId ?? "",
    card: "4242 4242 4242 4242",
  });
});
afterEach(async () => {
  await t.close();
});

async function counters() {
  const [row] = await t.ctx.db.select().from(postAnalytics).where(eq(postAnalytics.postId, postId));
  return row;
}

describe("recordAnalytics (spec 2 §4 'at most once per post per session', decision 0273)", () => {
  it("counts each action once per browser session, and views by accounts once per account", async () => {
    const browserA = sessionKeyOf("anon", "browser-a");
    const browserB = sessionKeyOf("anon", "browser-b");
    expect(await recordAnalytics(t.ctx, { postId, action: "view", sessionKey: browserA, userId: null })).toBe(
      true,
    );
    expect(await recordAnalytics(t.ctx, { postId, action: "view", sessionKey: browserA, userId: null })).toBe(
      false,
    );
    await recordAnalytics(t.ctx, { postId, action: "view", sessionKey: browserB, userId: null });
    await recordAnalytics(t.ctx, { postId, action: "copied_link", sessionKey: browserA, userId: null });
    await recordAnalytics(t.ctx, { postId, action: "profile_visit", sessionKey: browserA, userId: null });
    await recordAnalytics(t.ctx, { postId, action: "direct_message", sessionKey: browserA, userId: null });
    await recordAnalytics(t.ctx, {
      postId,
      action: "external_link_click",
      sessionKey: browserA,
      userId: null,
    });
    // One student in two sessions (phone and laptop): two views, one account reached.
    const reader = await createTestMember(t);
    for (const session of ["phone", "laptop", "phone"]) {
      await recordAnalytics(t.ctx, {
        postId,
        action: "view",
        sessionKey: sessionKeyOf("auth", session),
        userId: reader.id,
      });
    }
    expect(await counters()).toMatchObject({
      views: 4,
      accountsReached: 1,
      copiedLink: 1,
      profileVisits: 1,
      directMessages: 1,
      externalLinkClicks: 1,
    });
    expect((await getOwnAd(t.ctx, seller.viewer, adId))?.analytics).toMatchObject({
      views: 4,
      accountsReached: 1,
    });
  });

  it("10 concurrent repeats of one session's view count once", async () => {
    const sessionKey = sessionKeyOf("anon", "racer");
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        recordAnalytics(t.ctx, { postId, action: "view", sessionKey, userId: null }),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await counters())?.views).toBe(1);
  });

  it("counts nothing for a post without a running ad", async () => {
    const other = (await createTestPost(t, seller.viewer)).id;
    expect(
      await recordAnalytics(t.ctx, { postId: other, action: "view", sessionKey: "k", userId: null }),
    ).toBe(false);
    await stopAd(t.ctx, seller.viewer, adId);
    expect(await recordAnalytics(t.ctx, { postId, action: "view", sessionKey: "k", userId: null })).toBe(
      false,
    );
    expect(await counters()).toBeUndefined();
  });

  it("counts nothing once the ad's time ran out", async () => {
    t.clock.advance(5 * DAY_MS);
    expect(await recordAnalytics(t.ctx, { postId, action: "view", sessionKey: "k", userId: null })).toBe(
      false,
    );
  });

  it("hashes session keys (no token is stored) and keeps the kinds apart", () => {
    expect(sessionKeyOf("auth", "token")).not.toContain("token");
    expect(sessionKeyOf("auth", "x")).not.toBe(sessionKeyOf("anon", "x"));
  });
});
