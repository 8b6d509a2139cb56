import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestMember, createTestPost, type TestMember } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { ads } from "../db/schema";
import { boostPost } from "./boost";
import {
  CYCLE_START,
  interleaveAds,
  joinFeedCursor,
  listActiveAds,
  listFeedWithAds,
  splitFeedCursor,
} from "./feed-insertion";
import { payTestCheckout } from "./fulfilment";
import { pauseAd } from "./lifecycle";
import { feedItemKey } from "./sponsored.shared";

const posts = (from: number, count: number) =>
  Array.from({ length: count }, (_, index) => `p${from + index}`);

/** The entries as a compact string: posts by name, ads in brackets. */
function shape(entries: ReturnType<typeof interleaveAds<string, string>>["entries"]): string {
  return entries.map((entry) => (entry.kind === "post" ? entry.post : `[${entry.ad}]`)).join(" ");
}

describe("interleaveAds (spec 2 §2, §9: an ad after every 4th post, cycling; decision 0274)", () => {
  it("passes posts through unchanged when no ad runs", () => {
    const { entries, cycle } = interleaveAds(posts(1, 9), []);
    expect(shape(entries)).toBe("p1 p2 p3 p4 p5 p6 p7 p8 p9");
    expect(cycle).toEqual({ next: 0, slot: 0, since: 1 });
  });

  it("puts an ad after every 4th post, taking the ads in turn", () => {
    const { entries, cycle } = interleaveAds(posts(1, 13), ["A", "B", "C", "D"]);
    expect(shape(entries)).toBe("p1 p2 p3 p4 [A] p5 p6 p7 p8 [B] p9 p10 p11 p12 [C] p13");
    expect(cycle).toEqual({ next: 3, slot: 3, since: 1 });
  });

  it("never shows an ad twice on one page: extra places stay empty", () => {
    const { entries } = interleaveAds(posts(1, 15), ["A", "B"]);
    expect(shape(entries)).toBe("p1 p2 p3 p4 [A] p5 p6 p7 p8 [B] p9 p10 p11 p12 p13 p14 p15");
    const one = interleaveAds(posts(1, 15), ["A"]).entries;
    expect(one.filter((entry) => entry.kind === "ad")).toHaveLength(1);
  });

  it("continues the count and the cycle on the next page", () => {
    const ads = ["A", "B", "C", "D", "E"];
    const first = interleaveAds(posts(1, 15), ads);
    expect(shape(first.entries)).toBe("p1 p2 p3 p4 [A] p5 p6 p7 p8 [B] p9 p10 p11 p12 [C] p13 p14 p15");
    const second = interleaveAds(posts(16, 15), ads, first.cycle);
    // The 16th post is the 4th since the last ad; D and E, then A again (the cycle wraps).
    expect(shape(second.entries)).toBe(
      "p16 [D] p17 p18 p19 p20 [E] p21 p22 p23 p24 [A] p25 p26 p27 p28 [B] p29 p30",
    );
    const slots = [...first.entries, ...second.entries].flatMap((entry) =>
      entry.kind === "ad" ? [entry.slot] : [],
    );
    expect(slots).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it("starts the cycle where it stood when the number of ads changed meanwhile", () => {
    const { entries } = interleaveAds(posts(1, 4), ["A", "B"], { next: 7, slot: 9, since: 0 });
    expect(entries.at(-1)).toEqual({ kind: "ad", ad: "B", slot: 9 });
  });

  it("carries the cycle in the feed's cursor and refuses a tampered one", () => {
    const cycle = { next: 2, slot: 5, since: 3 };
    const joined = joinFeedCursor("WyIyMDI2Il0", cycle);
    expect(splitFeedCursor(joined)).toEqual({ postCursor: "WyIyMDI2Il0", cycle });
    expect(splitFeedCursor("WyIyMDI2Il0")).toEqual({ postCursor: "WyIyMDI2Il0", cycle: CYCLE_START });
    expect(splitFeedCursor(null)).toEqual({ postCursor: null, cycle: CYCLE_START });
    for (const bad of ["abc.1.2", "abc.x.1.1", "abc.-1.0.0", ".1.1.1", "abc.1.1.99999999"]) {
      expect(() => splitFeedCursor(bad)).toThrow("This list could not be loaded");
    }
  });

  it("keys sponsored items apart from the same post shown as a post", () => {
    const post = { id: "p1" };
    expect(feedItemKey(post)).toBe("p1");
    expect(
      feedItemKey({
        id: "p1",
        sponsored: { adId: "a", slot: 3, cta: { type: "message", label: "Send Message", url: null } },
      }),
    ).toBe("sponsored-3");
  });
});

describe("the home feed with sponsored posts", () => {
  let t: TestContext;
  let seller: TestMember;
  const ORIGIN = "http://ou.localhost:3000";

  beforeEach(async () => {
    t = await createTestContext();
    seller = await createTestMember(t);
  });
  afterEach(async () => {
    await t.close();
  });

  async function runAd(postId: string, days: number): Promise<string> {
    const { adId } = await boostPost(
      t.ctx,
      seller.viewer,
      { postId, campusId: "ou" },
      { goal: "message", days: String(days) },
      ORIGIN,
    );
    const [ad] = await t.ctx.db.select().from(ads).where(eq(ads.id, adId));
    await payTestCheckout(t.ctx, seller.viewer, {
      sessionId: ad?.checkoutSessionId ?? "",
      card: "4242424242424242",
    });
    return adId;
  }

  it("orders running ads by end then newest (spec 2 §7), leaving out paused ads and other campuses'", async () => {
    const longAd = await runAd((await createTestPost(t, seller.viewer, { text: "Long" })).id, 10);
    t.clock.advance(1000);
    const shortAd = await runAd((await createTestPost(t, seller.viewer, { text: "Short" })).id, 2);
    const pausedAd = await runAd((await createTestPost(t, seller.viewer, { text: "Paused" })).id, 1);
    await pauseAd(t.ctx, seller.viewer, pausedAd);
    const utSeller = await createTestMember(t, { campusId: "ut" });
    const utPost = await createTestPost(t, utSeller.viewer);
    await boostPost(
      t.ctx,
      utSeller.viewer,
      { postId: utPost.id, campusId: "ut" },
      { goal: "profile" },
      ORIGIN,
    );
    const running = await listActiveAds(t.ctx, null, "ou");
    expect(running.map((ad) => ad.adId)).toEqual([shortAd, longAd]);
    expect(running[0]?.cta).toEqual({ type: "message", label: "Send Message", url: null });
    t.clock.advance(2 * 24 * 60 * 60 * 1000);
    expect((await listActiveAds(t.ctx, null, "ou")).map((ad) => ad.adId)).toEqual([longAd]);
  });

  it("pages through the feed with sponsored posts after every 4th post, for visitors too", async () => {
    const reader = await createTestMember(t);
    const adPosts: string[] = [];
    for (let index = 0; index < 3; index++) {
      const post = await createTestPost(t, seller.viewer, { text: `Boosted ${index}` });
      adPosts.push(post.id);
      await runAd(post.id, 5);
    }
    for (let index = 0; index < 8; index++) await createTestPost(t, reader.viewer, { text: `Post ${index}` });
    // 11 posts, 5 a page: an ad after the 4th and the 8th post of the scroll.
    const seen: string[] = [];
    let cursor: string | null = null;
    const pages: string[][] = [];
    do {
      const page = await listFeedWithAds(t.ctx, null, { campusId: "ou", cursor, limit: 5 });
      pages.push(page.items.map((item) => (item.sponsored ? `ad:${item.sponsored.adId}` : "post")));
      const adsOnPage = page.items.filter((item) => item.sponsored).map((item) => item.id);
      expect(new Set(adsOnPage).size).toBe(adsOnPage.length);
      seen.push(...adsOnPage);
      cursor = page.nextCursor;
    } while (cursor);
    expect(pages.map((page) => page.map((entry) => (entry === "post" ? "p" : "A")).join(""))).toEqual([
      "ppppAp",
      "pppApp",
      "p",
    ]);
    expect(seen).toHaveLength(2);
    expect(new Set(seen).size).toBe(2);
    expect(seen.every((id) => adPosts.includes(id))).toBe(true);
    const first = await listFeedWithAds(t.ctx, reader.viewer, { campusId: "ou", limit: 5 });
    const sponsored = first.items.find((item) => item.sponsored);
    expect(sponsored?.sponsored).toMatchObject({ slot: 0, cta: { type: "message" } });
    expect(sponsored?.ownedByViewer).toBe(false);
  });
});
