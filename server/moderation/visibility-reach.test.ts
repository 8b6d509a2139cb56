import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestComment,
  createTestMember,
  createTestPost,
  type TestMember,
} from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { boostPost } from "../ads/boost";
import { listActiveAds } from "../ads/feed-insertion";
import { payTestCheckout } from "../ads/fulfilment";
import { startConversation } from "../chats/conversations";
import { listMessages } from "../chats/messages";
import { sharedPostPreview } from "../chats/shared-posts";
import { ads, mailOutbox, notifications, posts, user } from "../db/schema";
import { deliverDueMail } from "../mail/outbox";
import { mailComposers } from "../mail/worker";
import { listNotifications } from "../notifications/notifications";
import { listPostSavers, toggleSave } from "../posts/saves";
import { searchPosts } from "../search/posts";

/**
 * Decision 0546 beyond the post lists: search, the sponsored slots, shared posts in chats and
 * notifications leave out what the reader may not see. On both databases.
 */

let t: TestContext;
let seller: TestMember;
let reader: TestMember;
const DAY_MS = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  t = await createTestContext();
  seller = await createTestMember(t, { fullName: "Sara Seller" });
  reader = await createTestMember(t, { fullName: "Reed Reader" });
});
afterAll(() => t.close());

async function setState(postId: string, state: "hidden" | "removed" | null) {
  await t.ctx.db.update(posts).set({ moderationState: state }).where(eq(posts.id, postId));
}

async function suspend(member: TestMember, until: Date | null) {
  await t.ctx.db.update(user).set({ suspendedUntil: until }).where(eq(user.id, member.id));
}

describe("search (decision 0546)", () => {
  it("finds neither a hidden, a removed nor a suspended author's post, but the hidden post's author finds theirs", async () => {
    const other = await createTestMember(t);
    const made: Record<string, string> = {};
    for (const name of ["shown", "hidden", "removed"]) {
      t.clock.advance(60_000);
      made[name] = (await createTestPost(t, seller.viewer, { text: `Zebra lamp ${name}` })).id;
    }
    t.clock.advance(60_000);
    made.suspended = (await createTestPost(t, other.viewer, { text: "Zebra lamp suspended" })).id;
    await setState(made.hidden as string, "hidden");
    await setState(made.removed as string, "removed");
    await suspend(other, new Date(t.clock.now().getTime() + DAY_MS));
    const found = async (viewer: TestMember["viewer"] | null, limit = 10) =>
      (
        await searchPosts(t.ctx, viewer, { campusId: "ou", q: "zebra lamp", show: "latest", limit })
      ).items.map((item) => Object.keys(made).find((name) => made[name] === item.id));
    expect(await found(reader.viewer)).toEqual(["shown"]);
    expect(await found(null)).toEqual(["shown"]);
    expect(await found(seller.viewer)).toEqual(["hidden", "shown"]);
    // A page of one after the hidden rows is still full.
    expect(await found(null, 1)).toEqual(["shown"]);
    t.clock.advance(DAY_MS + 1000);
    expect(await found(reader.viewer)).toEqual(["suspended", "shown"]);
    await suspend(other, null);
  });
});

describe("sponsored slots (decision 0546)", () => {
  async function runAd(postId: string): Promise<string> {
    const { adId } = await boostPost(
      t.ctx,
      seller.viewer,
      { postId, campusId: "ou" },
      { goal: "message", days: "5" },
      "http://ou.localhost:3000",
    );
    const [ad] = await t.ctx.db.select().from(ads).where(eq(ads.id, adId));
    await payTestCheckout(t.ctx, seller.viewer, {
      sessionId: ad?.checkoutSessionId ?? "",
      card: "4242424242424242",
    });
    return adId;
  }

  it("show no hidden or removed post, and none of a suspended author until the suspension ends", async () => {
    const first = await createTestPost(t, seller.viewer, { text: "Boosted one" });
    const second = await createTestPost(t, seller.viewer, { text: "Boosted two" });
    const firstAd = await runAd(first.id);
    const secondAd = await runAd(second.id);
    const running = async (viewer: TestMember["viewer"] | null) =>
      (await listActiveAds(t.ctx, viewer, "ou")).map((ad) => ad.adId).sort();
    expect(await running(null)).toEqual([firstAd, secondAd].sort());
    await setState(first.id, "hidden");
    expect(await running(null)).toEqual([secondAd]);
    expect(await running(reader.viewer)).toEqual([secondAd]);
    await setState(first.id, "removed");
    expect(await running(seller.viewer)).toEqual([secondAd]);
    await setState(first.id, null);
    await suspend(seller, new Date(t.clock.now().getTime() + DAY_MS));
    expect(await running(reader.viewer)).toEqual([]);
    t.clock.advance(DAY_MS + 1000);
    expect(await running(reader.viewer)).toEqual([firstAd, secondAd].sort());
  });
});

describe("shared posts in chats (decision 0546)", () => {
  it("shows a hidden shared post as deleted to the other person, and refuses to share one the sender cannot see", async () => {
    const post = await createTestPost(t, seller.viewer, { text: "Shared desk" });
    const { chatId } = await startConversation(t.ctx, reader.viewer, {
      recipientId: seller.id,
      text: "Is this still there?",
      postId: post.id,
    });
    const card = async (member: TestMember) =>
      (await listMessages(t.ctx, member.viewer, chatId)).items.find((item) => item.sharedPost)?.sharedPost;
    expect(await card(reader)).toMatchObject({ deleted: false, id: post.id });
    await setState(post.id, "hidden");
    expect(await card(reader)).toEqual({ deleted: true, id: post.id });
    expect(await card(seller)).toMatchObject({ deleted: false, id: post.id });
    expect(await sharedPostPreview(t.ctx, reader.viewer, post.id)).toBeNull();
    await expect(
      startConversation(t.ctx, reader.viewer, { recipientId: seller.id, text: "Again", postId: post.id }),
    ).rejects.toThrow("Sorry, that post has been deleted.");
    await setState(post.id, null);
  });
});

describe("notifications (decision 0546)", () => {
  it("e-mails nothing about a hidden comment, and its line in the list leads nowhere", async () => {
    await t.ctx.db.delete(notifications);
    await t.ctx.db.delete(mailOutbox);
    t.mail.sent.length = 0;
    const post = await createTestPost(t, seller.viewer, { text: "Bike for sale" });
    const comment = await createTestComment(t, reader.viewer, post.id, { text: "Nasty words" });
    await setState(comment.id, "hidden");
    await deliverDueMail(t.ctx, 50, mailComposers);
    expect(t.mail.sent.filter((mail) => mail.headers?.["List-Unsubscribe"])).toEqual([]);
    const list = await listNotifications(t.ctx, seller.viewer);
    expect(list.items.map((item) => [item.text, item.href])).toEqual([
      ["Reed R. commented on your post", "/notifications"],
    ]);
    // Shown again (a moderator dismissed the reports): the line leads to the post, and new comments are mailed.
    await setState(comment.id, null);
    expect((await listNotifications(t.ctx, seller.viewer)).items[0]?.href).toBe(`/post/${post.id}`);
    await createTestComment(t, reader.viewer, post.id, { text: "Kind words" });
    await deliverDueMail(t.ctx, 50, mailComposers);
    expect(t.mail.sent.filter((mail) => mail.headers?.["List-Unsubscribe"])).toHaveLength(1);
  });
});

describe("acting on a post by its id (decision 0546)", () => {
  it("refuses a comment, a save and the list of savers of a post the student is not shown; its author still comments", async () => {
    const post = await createTestPost(t, seller.viewer, { text: "Hidden by reports" });
    await setState(post.id, "hidden");
    const gone = { code: "not-found", message: "Sorry, that post has been deleted." };
    await expect(createTestComment(t, reader.viewer, post.id)).rejects.toMatchObject(gone);
    await expect(toggleSave(t.ctx, reader.viewer, post.id)).rejects.toMatchObject(gone);
    expect(await listPostSavers(t.ctx, reader.viewer, { postId: post.id, campusId: "ou" })).toBeNull();
    await expect(createTestComment(t, seller.viewer, post.id)).resolves.toBeDefined();
    await setState(post.id, null);
    await expect(toggleSave(t.ctx, reader.viewer, post.id)).resolves.toMatchObject({ saved: true });
  });
});
