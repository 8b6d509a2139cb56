import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestMember } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { session, user } from "../db/schema";
import {
  ACTIVE_MEMBER_DAYS,
  ACTIVE_MEMBERS_CACHE_MS,
  estimateDailyReach,
  formatReach,
  getBoostReach,
} from "./reach";

// Decision 0466: the spec's 'Estimated daily reach' where the campus can reach it,
// otherwise the range its other active members allow.

describe("estimateDailyReach", () => {
  it("keeps the spec's figures where the campus has that many other active members", () => {
    expect(formatReach(estimateDailyReach(1500, "fixed"))).toBe("590-1,500 people");
    expect(formatReach(estimateDailyReach(40_000, "fixed"))).toBe("590-1,500 people");
    expect(formatReach(estimateDailyReach(2600, "untilPause"))).toBe("980-2,600 people");
  });

  it("caps the range at the audience, the bottom at the spec's proportion of the top", () => {
    expect(estimateDailyReach(1499, "fixed")).toEqual({ low: 590, high: 1499 });
    expect(estimateDailyReach(2000, "untilPause")).toEqual({ low: 754, high: 2000 });
    expect(estimateDailyReach(2000, "fixed")).toEqual({ low: 590, high: 1500 });
    expect(formatReach(estimateDailyReach(2, "fixed"))).toBe("1-2 people");
    expect(formatReach(estimateDailyReach(1, "fixed"))).toBe("0-1 people");
    expect(formatReach(estimateDailyReach(0, "untilPause"))).toBe("0 people");
    expect(formatReach({ low: 1, high: 1 })).toBe("1 person");
  });
});

describe("getBoostReach", () => {
  let t: TestContext;
  beforeEach(async () => {
    t = await createTestContext();
  });
  afterEach(async () => {
    await t.close();
  });

  it("counts the campus's members signed in within 30 days, not the seller, another campus's or a banned one", async () => {
    // A campus of 3 members (decision 0466): the seller and two readers, all just signed up.
    await createTestMember(t);
    const reader = await createTestMember(t);
    const away = await createTestMember(t);
    await createTestMember(t, { campusId: "stanford" });
    const banned = await createTestMember(t);
    await t.ctx.db.update(user).set({ banned: true }).where(eq(user.id, banned.id));
    expect(await getBoostReach(t.ctx, "ou")).toEqual({ fixed: "1-2 people", untilPause: "1-2 people" });

    // One reader last seen 31 days ago, the other 29: after the cached count expires, one is left.
    const ago = (days: number) => new Date(t.clock.now().getTime() - days * 24 * 60 * 60 * 1000);
    await t.ctx.db
      .update(session)
      .set({ updatedAt: ago(ACTIVE_MEMBER_DAYS + 1) })
      .where(eq(session.userId, away.id));
    await t.ctx.db
      .update(session)
      .set({ updatedAt: ago(ACTIVE_MEMBER_DAYS - 1) })
      .where(eq(session.userId, reader.id));
    expect(await getBoostReach(t.ctx, "ou")).toEqual({ fixed: "1-2 people", untilPause: "1-2 people" });
    t.clock.advance(ACTIVE_MEMBERS_CACHE_MS);
    expect(await getBoostReach(t.ctx, "ou")).toEqual({ fixed: "0-1 people", untilPause: "0-1 people" });
  });
});
