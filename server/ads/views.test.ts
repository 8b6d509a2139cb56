import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestMember, createTestPost, type TestMember } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { ads, postAnalytics } from "../db/schema";
import { boostPost } from "./boost";
import { payTestCheckout } from "./fulfilment";
import { DAY_MS } from "./refunds";
import { formatTimeLeft } from "./schemas.shared";
import { getOwnAd, listOwnAds } from "./views";

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

describe("the ads list (spec 2 §2 /ads)", () => {
  it("lists only the viewer's ads, newest first, with '--' stats while in checkout", async () => {
    const first = await runningAd();
    const otherPost = (await createTestPost(t, owner.viewer)).id;
    t.clock.advance(1000);
    const { adId: second } = await boostPost(
      t.ctx,
      owner.viewer,
      { postId: otherPost, campusId: "ou" },
      websiteForm(),
      ORIGIN,
    );
    const stranger = await createTestMember(t);
    expect(await listOwnAds(t.ctx, stranger.viewer)).toEqual([]);
    const list = await listOwnAds(t.ctx, owner.viewer);
    expect(list.map((ad) => [ad.id, ad.statusLabel, ad.statsHidden])).toEqual([
      [second, "Not Paid", true],
      [first, "Running", false],
    ]);
    expect(await getOwnAd(t.ctx, stranger.viewer, first)).toBeNull();
    const [analytics] = await t.ctx.db
      .select()
      .from(postAnalytics)
      .where(and(eq(postAnalytics.postId, postId)));
    expect(analytics).toBeUndefined();
  });

  it("formats the time left as days, hours and minutes", () => {
    expect(formatTimeLeft(0)).toBe("Expired");
    expect(formatTimeLeft(-5)).toBe("Expired");
    expect(formatTimeLeft(DAY_MS * 2 + 3 * 3600_000 + 5 * 60_000)).toBe("2 days, 3 hours");
    expect(formatTimeLeft(3600_000 + 60_000)).toBe("1 hour, 1 minute");
    expect(formatTimeLeft(59_000)).toBe("0 minutes");
  });
});
