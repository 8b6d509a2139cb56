import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, createTestPost, type TestMember } from "../../tests/support/factories";
import { createModerator } from "../../tests/support/moderation";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { moderationItems, moderationLog, posts, reports } from "../db/schema";
import { listModerationLog } from "./public-log";
import { setReporterMuted } from "./reporters";
import { fileReport } from "./reports";

// Decision 0542: staff mute a reporter, whose reports then weigh 0, now and later. Both databases.

let t: TestContext;
let moderator: TestMember;
let utModerator: TestMember;
let author: TestMember;

beforeAll(async () => {
  t = await createTestContext();
  moderator = await createModerator(t, "ou");
  utModerator = await createModerator(t, "ut");
  author = await createTestMember(t, { fullName: "Alex Author", ageDays: 8 });
});
afterAll(() => t.close());

async function reportPost(reporter: TestMember, postId: string) {
  await fileReport(t.ctx, reporter.viewer, { targetKind: "post", targetId: postId, reason: "spam" });
  const [item] = await t.ctx.db.select().from(moderationItems).where(eq(moderationItems.targetId, postId));
  if (!item) throw new Error("no item");
  return item;
}

const weightOf = async (itemId: string) =>
  (await t.ctx.db.select().from(moderationItems).where(eq(moderationItems.id, itemId)))[0]?.weight;

describe("muting a reporter (decision 0542)", () => {
  it("makes their open and later reports weigh 0, so they never help hide a post; unmuting restores them", async () => {
    const muted = await createTestMember(t, { ageDays: 8 });
    const first = await createTestPost(t, author.viewer, { text: "Desk lamp" });
    const item = await reportPost(muted, first.id);
    expect(await weightOf(item.id)).toBe(1);

    await setReporterMuted(t.ctx, moderator.viewer, { itemId: item.id, reporterId: muted.id, muted: "true" });
    expect(await weightOf(item.id)).toBe(0);
    const [row] = await t.ctx.db.select().from(moderationLog).where(eq(moderationLog.targetId, muted.id));
    expect(row).toMatchObject({ action: "mute_reporter", actorId: moderator.id, campusId: "ou" });
    // Private: the public log never shows it.
    const shown = await listModerationLog(t.ctx, author.viewer, "ou");
    expect(JSON.stringify(shown)).not.toContain("mute");

    // With two fresh reporters (1 + 1) and the muted one (0), threshold 3 is not reached.
    const second = await createTestPost(t, author.viewer, { text: "Bike lock" });
    for (const reporter of [
      muted,
      await createTestMember(t, { ageDays: 8 }),
      await createTestMember(t, { ageDays: 8 }),
    ]) {
      await reportPost(reporter, second.id);
    }
    const [post] = await t.ctx.db.select().from(posts).where(eq(posts.id, second.id));
    expect(post?.moderationState).toBeNull();
    const [theirs] = await t.ctx.db.select().from(reports).where(eq(reports.targetId, second.id)).limit(1);
    expect(theirs?.weight).toBe(0);

    await setReporterMuted(t.ctx, moderator.viewer, {
      itemId: item.id,
      reporterId: muted.id,
      muted: "false",
    });
    expect(await weightOf(item.id)).toBe(1);
  });

  it("answers not-found out of the staff member's scope, or for someone who did not report the item", async () => {
    const reporter = await createTestMember(t, { ageDays: 8 });
    const item = await reportPost(reporter, (await createTestPost(t, author.viewer, { text: "Kettle" })).id);
    const notFound = { code: "not-found" };
    await expect(
      setReporterMuted(t.ctx, utModerator.viewer, {
        itemId: item.id,
        reporterId: reporter.id,
        muted: "true",
      }),
    ).rejects.toMatchObject(notFound);
    await expect(
      setReporterMuted(t.ctx, moderator.viewer, { itemId: item.id, reporterId: author.id, muted: "true" }),
    ).rejects.toMatchObject(notFound);
    await expect(
      setReporterMuted(t.ctx, reporter.viewer, { itemId: item.id, reporterId: reporter.id, muted: "true" }),
    ).rejects.toMatchObject(notFound);
    expect(await weightOf(item.id)).toBe(1);
  });
});
