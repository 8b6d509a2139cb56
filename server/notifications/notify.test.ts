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
import { deleteChat, startConversation } from "../chats/conversations";
import { sendMessage, toggleMessageLike } from "../chats/messages";
import { mailOutbox, notifications, realtimeEvents } from "../db/schema";
import { toggleSave } from "../posts/saves";
import { listNotifications } from "./notifications";
import { notify, notifyAll } from "./notify";

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

describe("many notices at once (notifyAll)", () => {
  it("writes each as notify() would: one row, one realtime event and the e-mail each; never the actor, never across a block", async () => {
    await clearNotifications();
    const eve = await createTestMember(t, { fullName: "Eve Blocked" });
    await blockUser(t.ctx, eve.viewer, ana.id);
    const post = await createTestPost(t, ana.viewer, { text: "Many notices" });
    const eventsBefore = await t.ctx.db
      .select()
      .from(realtimeEvents)
      .where(eq(realtimeEvents.userId, ben.id));
    const notice = (to: string, event: "closed" | "voided") =>
      ({ type: "offer", event, to, actorId: ana.id, campusId: "ou", postId: post.id }) as const;
    const ids = await t.ctx.db.transaction((tx) =>
      notifyAll(tx, t.ctx, [
        notice(ben.id, "closed"),
        notice(cal.id, "closed"),
        // The same person twice: a second statement, so their realtime cursor moves twice.
        notice(ben.id, "voided"),
        notice(ana.id, "closed"),
        notice(eve.id, "closed"),
      ]),
    );
    expect(ids).toHaveLength(3);
    const rows = await t.ctx.db
      .select({ userId: notifications.userId, event: notifications.event })
      .from(notifications)
      .where(eq(notifications.postId, post.id));
    expect(rows.map((row) => `${row.userId === ben.id ? "ben" : "cal"}:${row.event}`).sort()).toEqual([
      "ben:closed",
      "ben:voided",
      "cal:closed",
    ]);
    const eventsAfter = await t.ctx.db.select().from(realtimeEvents).where(eq(realtimeEvents.userId, ben.id));
    expect(eventsAfter.length - eventsBefore.length).toBe(2);
    const mail = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.userId, cal.id));
    expect(mail.length).toBeGreaterThan(0);
    expect(await notificationsOf(eve)).toEqual([]);
  });
});
