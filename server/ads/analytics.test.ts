import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestMember, createTestPost, type TestMember } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { ads, postAnalytics } from "../db/schema";
import {
  isAnalyticsTokenValid,
  issueAnalyticsToken,
  recordAnalytics,
  sessionKeyOf,
  trackPostAnalytics,
  VISITOR_SESSIONS_PER_ADDRESS,
} from "./analytics";
import { boostPost } from "./boost";
import { payTestCheckout } from "./fulfilment";
import { stopAd } from "./lifecycle";
import { DAY_MS } from "./refunds";
import { getOwnAd } from "./views";

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
    expect(
      await recordAnalytics(t.ctx, {
        postId,
        campusId: "ou",
        action: "view",
        sessionKey: browserA,
        userId: null,
      }),
    ).toBe(true);
    expect(
      await recordAnalytics(t.ctx, {
        postId,
        campusId: "ou",
        action: "view",
        sessionKey: browserA,
        userId: null,
      }),
    ).toBe(false);
    await recordAnalytics(t.ctx, {
      postId,
      campusId: "ou",
      action: "view",
      sessionKey: browserB,
      userId: null,
    });
    await recordAnalytics(t.ctx, {
      postId,
      campusId: "ou",
      action: "copied_link",
      sessionKey: browserA,
      userId: null,
    });
    await recordAnalytics(t.ctx, {
      postId,
      campusId: "ou",
      action: "profile_visit",
      sessionKey: browserA,
      userId: null,
    });
    await recordAnalytics(t.ctx, {
      postId,
      campusId: "ou",
      action: "direct_message",
      sessionKey: browserA,
      userId: null,
    });
    await recordAnalytics(t.ctx, {
      postId,
      campusId: "ou",
      action: "external_link_click",
      sessionKey: browserA,
      userId: null,
    });
    // One student in two sessions (phone and laptop): two views, one account reached.
    const reader = await createTestMember(t);
    for (const session of ["phone", "laptop", "phone"]) {
      await recordAnalytics(t.ctx, {
        postId,
        campusId: "ou",
        action: "view",
        sessionKey: sessionKeyOf("user", session),
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
        recordAnalytics(t.ctx, { postId, campusId: "ou", action: "view", sessionKey, userId: null }),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await counters())?.views).toBe(1);
  });

  it("counts nothing for a post without a running ad", async () => {
    const other = (await createTestPost(t, seller.viewer)).id;
    expect(
      await recordAnalytics(t.ctx, {
        postId: other,
        campusId: "ou",
        action: "view",
        sessionKey: "k",
        userId: null,
      }),
    ).toBe(false);
    await stopAd(t.ctx, seller.viewer, adId);
    expect(
      await recordAnalytics(t.ctx, { postId, campusId: "ou", action: "view", sessionKey: "k", userId: null }),
    ).toBe(false);
    expect(await counters()).toBeUndefined();
  });

  it("counts nothing once the ad's time ran out", async () => {
    t.clock.advance(5 * DAY_MS);
    expect(
      await recordAnalytics(t.ctx, { postId, campusId: "ou", action: "view", sessionKey: "k", userId: null }),
    ).toBe(false);
  });

  it("hashes session keys (no token is stored) and keeps the kinds apart", () => {
    expect(sessionKeyOf("user", "token")).not.toContain("token");
    expect(sessionKeyOf("user", "x")).not.toBe(sessionKeyOf("anon", "x"));
  });
});

describe("trackPostAnalytics: only what a real reader of the campus could do (decision 0467)", () => {
  const track = (input: Partial<Parameters<typeof trackPostAnalytics>[1]> = {}) =>
    trackPostAnalytics(t.ctx, {
      postId,
      action: "view",
      token: issueAnalyticsToken(t.ctx, { postId, campusId: "ou" }),
      campusId: "ou",
      signedIn: null,
      visitorSession: null,
      address: "203.0.113.7",
      ...input,
    });

  it("counts nothing for 200 requests without a cookie, and stops giving that address sessions", async () => {
    const outcomes: string[] = [];
    for (let i = 0; i < 200; i++) outcomes.push((await track()).kind);
    expect(await counters()).toBeUndefined();
    expect(outcomes.filter((kind) => kind === "session-issued")).toHaveLength(
      VISITOR_SESSIONS_PER_ADDRESS.maxFailures,
    );
    expect(outcomes.at(-1)).toBe("throttled");
    // Another address is not held back by this one.
    expect((await track({ address: "198.51.100.9" })).kind).toBe("session-issued");
  });

  it("counts a visitor once per session, and a made-up session not at all", async () => {
    const first = await track();
    if (first.kind !== "session-issued") throw new Error(`expected a session, got ${first.kind}`);
    expect(await track({ visitorSession: first.visitorSession })).toEqual({ kind: "done", counted: true });
    expect(await track({ visitorSession: first.visitorSession })).toEqual({ kind: "done", counted: false });
    const [id] = first.visitorSession.split(".");
    for (const forged of [
      `${id}`,
      `${id}.x`,
      "abcdefghijklmnopqrstuvwx.abc",
      `other.${first.visitorSession.split(".")[1]}`,
    ]) {
      expect((await track({ visitorSession: forged })).kind, forged).toBe("session-issued");
    }
    expect((await counters())?.views).toBe(1);
  });

  it("a script that keeps each cookie it is given counts at most the address's session allowance", async () => {
    let views = 0;
    for (let i = 0; i < 200; i++) {
      const outcome = await track();
      if (outcome.kind !== "session-issued") continue;
      const counted = await track({ visitorSession: outcome.visitorSession });
      if (counted.kind === "done" && counted.counted) views++;
    }
    expect(views).toBe(VISITOR_SESSIONS_PER_ADDRESS.maxFailures);
    expect((await counters())?.views).toBe(VISITOR_SESSIONS_PER_ADDRESS.maxFailures);
  });

  it("counts a signed-in reader once per account, whatever session they come with", async () => {
    const reader = await createTestMember(t);
    const signedIn = { userId: reader.viewer.id };
    expect(await track({ signedIn })).toEqual({ kind: "done", counted: true });
    expect(await track({ signedIn })).toEqual({ kind: "done", counted: false });
    expect(await counters()).toMatchObject({ views: 1, accountsReached: 1 });
  });

  it("refuses another campus's host, another post's token, a forged or expired token", async () => {
    const reader = { userId: seller.viewer.id };
    const other = (await createTestPost(t, seller.viewer)).id;
    const refusals = [
      // The same post asked about on another campus's host, with its own campus's token.
      await track({ campusId: "stanford", signedIn: reader }),
      // A token another campus's page could render for it.
      await track({
        campusId: "stanford",
        token: issueAnalyticsToken(t.ctx, { postId, campusId: "stanford" }),
        signedIn: reader,
      }),
      await track({ token: issueAnalyticsToken(t.ctx, { postId: other, campusId: "ou" }), signedIn: reader }),
      await track({ token: "", signedIn: reader }),
      await track({ token: "zzzzzz.forged", signedIn: reader }),
    ];
    expect(refusals.map((outcome) => outcome.kind)).toEqual([
      "forbidden",
      "done", // valid token, but the ad is Oklahoma's: nothing is counted
      "forbidden",
      "forbidden",
      "forbidden",
    ]);
    expect(refusals[1]).toEqual({ kind: "done", counted: false });
    const token = issueAnalyticsToken(t.ctx, { postId, campusId: "ou" });
    t.clock.advance(2 * 60 * 60 * 1000);
    expect((await track({ token, signedIn: reader })).kind).toBe("forbidden");
    expect(await counters()).toBeUndefined();
  });

  it("gives every render within the hour the same token (cached visitors' pages, decision 0104)", () => {
    const token = issueAnalyticsToken(t.ctx, { postId, campusId: "ou" });
    t.clock.advance(1000);
    expect(issueAnalyticsToken(t.ctx, { postId, campusId: "ou" })).toBe(token);
    expect(isAnalyticsTokenValid(t.ctx, token, { postId, campusId: "ou" })).toBe(true);
    expect(isAnalyticsTokenValid(t.ctx, token, { postId, campusId: "stanford" })).toBe(false);
  });
});
