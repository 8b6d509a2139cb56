import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createTestComment,
  createTestMember,
  createTestPost,
  type TestMember,
} from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { mailOutbox, notificationSettings, notifications } from "../db/schema";
import { toggleSave } from "../posts/saves";
import { countUnreadNotifications, listNotifications, markNotificationsSeen } from "./notifications";
import { notify } from "./notify";

let t: TestContext;
let ana: TestMember;
let ben: TestMember;
let cal: TestMember;
let dee: TestMember;

beforeAll(async () => {
  t = await createTestContext();
  ana = await createTestMember(t, { fullName: "Ana Seller" });
  ben = await createTestMember(t, { fullName: "Ben Buyer" });
  cal = await createTestMember(t, { fullName: "Cal Commenter" });
  dee = await createTestMember(t, { fullName: "Dee Deeper" });
});
afterAll(() => t.close());

async function clearNotifications() {
  await t.ctx.db.delete(notifications);
  await t.ctx.db.delete(mailOutbox).where(eq(mailOutbox.kind, "notification"));
  t.mail.sent.length = 0;
}

beforeEach(clearNotifications);

describe("the list and the badge (spec 2 §4, §7)", () => {
  it("groups the saves of many people on one post, newest first, and marks what it lists read", async () => {
    const post = await createTestPost(t, ana.viewer, { text: "Desk lamp" });
    for (const saver of [ben, cal, dee]) {
      await toggleSave(t.ctx, saver.viewer, post.id);
      t.clock.advance(1000);
    }
    await createTestComment(t, ben.viewer, post.id);
    expect(await countUnreadNotifications(t.ctx, ana.viewer)).toBe(4);

    const page = await listNotifications(t.ctx, ana.viewer);
    expect(page.items.map((item) => [item.text, item.unread, item.href])).toEqual([
      ["Ben B. commented on your post", true, `/post/${post.id}`],
      ["Dee D. and 2 others saved your post", true, `/post/${post.id}`],
    ]);
    expect(page.items[1]?.actors.map((actor) => actor.username)).toEqual([
      dee.viewer.username,
      cal.viewer.username,
      ben.viewer.username,
    ]);
    const again = await listNotifications(t.ctx, ana.viewer);
    expect(again.items.every((item) => !item.unread)).toBe(true);
  });

  it("pages 15 at a time by keyset and refuses a tampered cursor", async () => {
    const posts: string[] = [];
    for (let index = 0; index < 17; index++) {
      const post = await createTestPost(t, ana.viewer, { text: `Item ${index}` });
      posts.push(post.id);
      await t.ctx.db.transaction((tx) =>
        notify(tx, t.ctx, { type: "comment", to: ana.id, actorId: ben.id, campusId: "ou", postId: post.id }),
      );
      t.clock.advance(1000);
    }
    const first = await listNotifications(t.ctx, ana.viewer);
    expect(first.items).toHaveLength(15);
    expect(first.items[0]?.href).toBe(`/post/${posts[16]}`);
    expect(first.nextCursor).not.toBeNull();
    const second = await listNotifications(t.ctx, ana.viewer, { cursor: first.nextCursor });
    expect(second.items.map((item) => item.href)).toEqual([`/post/${posts[1]}`, `/post/${posts[0]}`]);
    expect(second.nextCursor).toBeNull();
    await expect(listNotifications(t.ctx, ana.viewer, { cursor: "not-a-cursor" })).rejects.toMatchObject({
      code: "invalid-input",
    });
  });

  it("resets the badge when the page opens and counts what comes after", async () => {
    const post = await createTestPost(t, ana.viewer);
    await createTestComment(t, ben.viewer, post.id);
    await createTestComment(t, cal.viewer, post.id);
    expect(await countUnreadNotifications(t.ctx, ana.viewer)).toBe(2);
    t.clock.advance(1000);
    await markNotificationsSeen(t.ctx, ana.viewer);
    expect(await countUnreadNotifications(t.ctx, ana.viewer)).toBe(0);
    t.clock.advance(1000);
    await createTestComment(t, dee.viewer, post.id);
    expect(await countUnreadNotifications(t.ctx, ana.viewer)).toBe(1);
  });

  it("moves the moment the list was opened only when something unread came since", async () => {
    const eve = await createTestMember(t, { fullName: "Eve Early" });
    const seenAt = async () =>
      (await t.ctx.db.select().from(notificationSettings).where(eq(notificationSettings.userId, eve.id)))[0]
        ?.seenAt;
    const post = await createTestPost(t, eve.viewer);
    await markNotificationsSeen(t.ctx, eve.viewer);
    const first = await seenAt();
    expect(first).toBeInstanceOf(Date);
    t.clock.advance(1000);
    await markNotificationsSeen(t.ctx, eve.viewer);
    // Nothing new: the same moment (no write), and the count is 0 as it would be anyway.
    expect(await seenAt()).toEqual(first);
    expect(await countUnreadNotifications(t.ctx, eve.viewer)).toBe(0);
    t.clock.advance(1000);
    await createTestComment(t, ben.viewer, post.id);
    expect(await countUnreadNotifications(t.ctx, eve.viewer)).toBe(1);
    t.clock.advance(1000);
    await markNotificationsSeen(t.ctx, eve.viewer);
    expect((await seenAt())?.getTime()).toBeGreaterThan(first?.getTime() ?? 0);
    expect(await countUnreadNotifications(t.ctx, eve.viewer)).toBe(0);
  });
});
