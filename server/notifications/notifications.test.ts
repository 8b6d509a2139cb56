import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createTestComment,
  createTestMember,
  createTestPost,
  type TestMember,
} from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { blockUser, unblockUser } from "../chats/blocks";
import { deleteChat, sendMessage, startConversation, toggleMessageLike } from "../chats/chats";
import { mailOutbox, notificationSettings, notifications, realtimeEvents, user } from "../db/schema";
import { deliverDueMail } from "../mail/outbox";
import { mailComposers } from "../mail/worker";
import { deletePost } from "../posts/posts";
import { toggleSave } from "../posts/saves";
import { unsubscribeFromNotificationEmails, unsubscribeToken, verifyUnsubscribeToken } from "./email";
import {
  countUnreadNotifications,
  listNotifications,
  markNotificationsSeen,
  updateEmailPreferences,
} from "./notifications";
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

async function notificationsOf(member: TestMember) {
  return t.ctx.db
    .select({ type: notifications.type, actorId: notifications.actorId, postId: notifications.postId })
    .from(notifications)
    .where(eq(notifications.userId, member.id));
}

async function clearNotifications() {
  await t.ctx.db.delete(notifications);
  await t.ctx.db.delete(mailOutbox).where(eq(mailOutbox.kind, "notification"));
  t.mail.sent.length = 0;
}

/** Sends what is due now with the worker's composers; only the notification e-mails are returned. */
async function deliverNotificationMail() {
  await deliverDueMail(t.ctx, 50, mailComposers);
  return t.mail.sent.filter((mail) => mail.headers?.["List-Unsubscribe"]);
}

beforeEach(clearNotifications);

describe("who is notified (decision 0250, spec 2 §3 types)", () => {
  it("tells the owner of a saved post once, and never the owner who saves their own", async () => {
    const post = await createTestPost(t, ana.viewer);
    await toggleSave(t.ctx, ben.viewer, post.id);
    await toggleSave(t.ctx, ben.viewer, post.id);
    await toggleSave(t.ctx, ben.viewer, post.id);
    await toggleSave(t.ctx, ana.viewer, post.id);
    expect(await notificationsOf(ana)).toEqual([{ type: "like", actorId: ben.id, postId: post.id }]);
  });

  it("tells the post's owner of a comment, the comment's author of a reply, and the thread above", async () => {
    const post = await createTestPost(t, ana.viewer);
    const benComment = await createTestComment(t, ben.viewer, post.id);
    expect(await notificationsOf(ana)).toEqual([{ type: "comment", actorId: ben.id, postId: post.id }]);
    await clearNotifications();

    const calReply = await createTestComment(t, cal.viewer, benComment.id);
    expect(await notificationsOf(ben)).toEqual([{ type: "comment reply", actorId: cal.id, postId: post.id }]);
    expect(await notificationsOf(ana)).toEqual([
      { type: "post interaction", actorId: cal.id, postId: post.id },
    ]);
    await clearNotifications();

    await createTestComment(t, dee.viewer, calReply.id);
    expect(await notificationsOf(cal)).toEqual([{ type: "comment reply", actorId: dee.id, postId: post.id }]);
    expect(await notificationsOf(ben)).toEqual([
      { type: "comment interaction", actorId: dee.id, postId: post.id },
    ]);
    expect(await notificationsOf(ana)).toEqual([
      { type: "post interaction", actorId: dee.id, postId: post.id },
    ]);
    expect(await notificationsOf(dee)).toEqual([]);
  });

  it("does not notify the owner who replies in their own thread, and tells each person once", async () => {
    const post = await createTestPost(t, ana.viewer);
    const benComment = await createTestComment(t, ben.viewer, post.id);
    await clearNotifications();
    await createTestComment(t, ana.viewer, benComment.id);
    expect(await notificationsOf(ana)).toEqual([]);
    expect(await notificationsOf(ben)).toEqual([{ type: "comment reply", actorId: ana.id, postId: post.id }]);
  });

  it("tells the recipient of a new chat, a message and a heart, never the actor, with a realtime event", async () => {
    const { chatId, messageId } = await startConversation(t.ctx, ben.viewer, {
      recipientId: ana.id,
      text: "Still for sale?",
    });
    await sendMessage(t.ctx, ben.viewer, chatId, { text: "I can pick it up today" });
    const reply = await sendMessage(t.ctx, ana.viewer, chatId, { text: "Yes!" });
    expect((await notificationsOf(ana)).map((row) => row.type).sort()).toEqual(["message", "new chat"]);
    await toggleMessageLike(t.ctx, ben.viewer, chatId, reply.messageId);
    expect((await notificationsOf(ana)).map((row) => row.type).sort()).toEqual([
      "message",
      "message like",
      "new chat",
    ]);
    // Ben's heart on Ana's reply tells Ana; taking it back tells nobody.
    expect((await notificationsOf(ben)).map((row) => row.type)).toEqual(["message"]);
    await toggleMessageLike(t.ctx, ben.viewer, chatId, reply.messageId);
    expect(await notificationsOf(ana)).toHaveLength(3);
    const self = await t.ctx.db.transaction((tx) =>
      notify(tx, t.ctx, { type: "message", to: ana.id, actorId: ana.id, campusId: "ou", chatId, messageId }),
    );
    expect(self).toBeNull();
    const events = await t.ctx.db
      .select({ type: realtimeEvents.type, data: realtimeEvents.data })
      .from(realtimeEvents)
      .where(and(eq(realtimeEvents.userId, ana.id), eq(realtimeEvents.type, "notification")));
    expect(events.slice(-3).map((event) => (event.data as { kind?: string }).kind)).toEqual([
      "new chat",
      "message",
      "message like",
    ]);
    const page = await listNotifications(t.ctx, ana.viewer);
    expect(page.items).toContainEqual(
      expect.objectContaining({ text: "Ben B. sent you a message", href: `/messages/${chatId}` }),
    );
    // Deleting the conversation for both takes its notifications with it (decision 0234).
    await deleteChat(t.ctx, ana.viewer, chatId);
    expect(await notificationsOf(ana)).toEqual([]);
  });

  it("tells nobody who blocked the actor", async () => {
    const post = await createTestPost(t, dee.viewer, { text: "Bike for sale" });
    await blockUser(t.ctx, dee.viewer, cal.id);
    // Decision 0462: the comment itself is refused now; the save is taken, and told to nobody.
    await expect(
      createTestComment(t, cal.viewer, post.id, { text: "Is it still here?" }),
    ).rejects.toMatchObject({
      code: "forbidden",
    });
    await toggleSave(t.ctx, cal.viewer, post.id);
    expect(await notificationsOf(dee)).toEqual([]);
    await unblockUser(t.ctx, dee.viewer, cal.id);
    await createTestComment(t, cal.viewer, post.id, { text: "Hello?" });
    expect((await notificationsOf(dee)).map((row) => row.type)).toEqual(["comment"]);
  });

  it("writes nothing when the notifying change rolls back", async () => {
    const post = await createTestPost(t, ana.viewer, { text: "Lamp" });
    await expect(
      t.ctx.db.transaction(async (tx) => {
        await notify(tx, t.ctx, {
          type: "like",
          to: ana.id,
          actorId: ben.id,
          campusId: "ou",
          postId: post.id,
        });
        throw new Error("the save could not be stored");
      }),
    ).rejects.toThrow("the save could not be stored");
    expect(await notificationsOf(ana)).toEqual([]);
    expect(await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "notification"))).toEqual([]);
  });
});

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

describe("notification e-mail (decision 0251)", () => {
  let delayed: TestContext;
  let owner: TestMember;
  let saver: TestMember;
  let commenter: TestMember;

  beforeAll(async () => {
    delayed = await createTestContext({ notificationEmailDelayMs: 120_000 });
    owner = await createTestMember(delayed, { fullName: "Owen Owner" });
    saver = await createTestMember(delayed, { fullName: "Sam Saver" });
    commenter = await createTestMember(delayed, { fullName: "Cora Comment" });
  });
  afterAll(() => delayed.close());
  beforeEach(async () => {
    await delayed.ctx.db.delete(notifications);
    await delayed.ctx.db.delete(mailOutbox);
    delayed.mail.sent.length = 0;
    await delayed.ctx.db.update(user).set({ emailNotifications: true }).where(eq(user.id, owner.id));
    await updateEmailPreferences(delayed.ctx, owner.viewer, {
      enabled: true,
      comments: true,
      saves: true,
      messages: true,
    });
  });

  async function deliver() {
    await deliverDueMail(delayed.ctx, 50, mailComposers);
    return delayed.mail.sent.filter((mail) => mail.to === owner.email);
  }

  it("waits the delay, then sends several notifications as one e-mail with one-click unsubscribe", async () => {
    const post = await createTestPost(delayed, owner.viewer);
    await toggleSave(delayed.ctx, saver.viewer, post.id);
    delayed.clock.advance(30_000);
    await createTestComment(delayed, commenter.viewer, post.id);
    expect(await deliver()).toEqual([]);
    delayed.clock.advance(91_000);
    const sent = await deliver();
    expect(sent).toHaveLength(1);
    const [mail] = sent;
    expect(mail?.subject).toBe("You have 2 new notifications");
    expect(mail?.text).toContain("Cora C. commented on your post");
    expect(mail?.text).toContain("Sam S. saved your post");
    expect(mail?.text).toContain(`/post/${post.id}`);
    expect(mail?.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    const link = /^<(.+)>$/.exec(mail?.headers?.["List-Unsubscribe"] ?? "")?.[1] ?? "";
    expect(new URL(link).origin).toBe(`http://localhost:${delayed.ctx.config.port}`);
    expect(mail?.text).toContain("Turn off notification e-mails");
    expect(mail?.text).toContain(link);
    // Nothing is mailed twice.
    delayed.clock.advance(600_000);
    expect(await deliver()).toHaveLength(1);
  });

  it("drops the e-mail when the notification was read meanwhile", async () => {
    const post = await createTestPost(delayed, owner.viewer);
    await toggleSave(delayed.ctx, saver.viewer, post.id);
    await listNotifications(delayed.ctx, owner.viewer);
    delayed.clock.advance(121_000);
    expect(await deliver()).toEqual([]);
    const [row] = await delayed.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "notification"));
    expect(row?.status).toBe("dropped");
  });

  it("drops the e-mail when the content was deleted meanwhile", async () => {
    const post = await createTestPost(delayed, owner.viewer);
    await createTestComment(delayed, commenter.viewer, post.id);
    await deletePost(delayed.ctx, owner.viewer, post.id);
    delayed.clock.advance(121_000);
    expect(await deliver()).toEqual([]);
  });

  it("drops the e-mail when the preference was turned off meanwhile, per kind or entirely", async () => {
    const post = await createTestPost(delayed, owner.viewer);
    await toggleSave(delayed.ctx, saver.viewer, post.id);
    await updateEmailPreferences(delayed.ctx, owner.viewer, {
      enabled: true,
      comments: true,
      saves: false,
      messages: true,
    });
    delayed.clock.advance(121_000);
    expect(await deliver()).toEqual([]);

    await createTestComment(delayed, commenter.viewer, post.id);
    await updateEmailPreferences(delayed.ctx, owner.viewer, {
      enabled: false,
      comments: true,
      saves: true,
      messages: true,
    });
    delayed.clock.advance(121_000);
    expect(await deliver()).toEqual([]);
  });

  it("queues nothing for a kind the user turned off", async () => {
    await updateEmailPreferences(delayed.ctx, owner.viewer, {
      enabled: true,
      comments: false,
      saves: true,
      messages: true,
    });
    const post = await createTestPost(delayed, owner.viewer);
    await createTestComment(delayed, commenter.viewer, post.id);
    expect(await delayed.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "notification"))).toEqual(
      [],
    );
  });
});

describe("unsubscribe (RFC 8058)", () => {
  it("accepts only tokens this app signed, and turns email_notifications off", async () => {
    const token = unsubscribeToken(t.ctx, ana, "notifications");
    expect(await verifyUnsubscribeToken(t.ctx, token, "notifications")).toBe(ana.id);
    expect(await verifyUnsubscribeToken(t.ctx, token.replace(ana.id, ben.id), "notifications")).toBeNull();
    expect(
      await verifyUnsubscribeToken(
        t.ctx,
        `${token.slice(0, token.lastIndexOf("."))}.forged`,
        "notifications",
      ),
    ).toBeNull();
    expect(await unsubscribeFromNotificationEmails(t.ctx, `${ana.id}.forged`)).toBe(false);
    expect(await unsubscribeFromNotificationEmails(t.ctx, token)).toBe(true);
    const [row] = await t.ctx.db
      .select({ on: user.emailNotifications })
      .from(user)
      .where(eq(user.id, ana.id));
    expect(row?.on).toBe(false);
    // With the delay of 0 of tests, a notification now queues no e-mail.
    const post = await createTestPost(t, ana.viewer);
    await createTestComment(t, ben.viewer, post.id);
    expect(await deliverNotificationMail()).toEqual([]);
    await t.ctx.db.update(user).set({ emailNotifications: true }).where(eq(user.id, ana.id));
  });

  it("sends at once with a delay of 0", async () => {
    const post = await createTestPost(t, ana.viewer);
    await createTestComment(t, ben.viewer, post.id);
    const sent = await deliverNotificationMail();
    expect(sent.map((mail) => [mail.to, mail.subject])).toEqual([
      [ana.email, "Ben B. commented on your post"],
    ]);
  });
});
