import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, createTestPost, type TestMember } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { chatMembers, deals, mailOutbox, notifications, user } from "../db/schema";
import { readShellCounts } from "../notifications/badges";
import { blockBetween } from "./blocks";
import { getChat, listChats, startConversation } from "./conversations";
import { sendMessage } from "./messages";
import { countUnreadChats, markChatRead } from "./read-state";
import {
  acceptRequest,
  blockRequestSender,
  countRequests,
  declineRequest,
  firstMessageGoesToRequests,
  getMessagePolicy,
  setMessagePolicy,
} from "./requests";

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

/** A recipient who chose 'known' and a stranger (trust level 1, so no safety rule is involved). */
async function strangerAndCareful(): Promise<{ stranger: TestMember; careful: TestMember }> {
  const stranger = await createTestMember(t, { fullName: "Sam Stranger" });
  const careful = await createTestMember(t, { fullName: "Cara Careful" });
  await t.ctx.db.update(user).set({ trustLevel: 1 }).where(eq(user.id, stranger.id));
  await setMessagePolicy(t.ctx, careful.viewer, { policy: "known" });
  return { stranger, careful };
}

async function notificationsOf(member: TestMember) {
  return t.ctx.db
    .select({ type: notifications.type })
    .from(notifications)
    .where(eq(notifications.userId, member.id));
}

async function mailTo(member: TestMember) {
  return t.ctx.db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, member.email), eq(mailOutbox.kind, "notification")));
}

async function stateOf(chatId: string, member: TestMember) {
  const [row] = await t.ctx.db
    .select({ state: chatMembers.requestState })
    .from(chatMembers)
    .where(and(eq(chatMembers.chatId, chatId), eq(chatMembers.userId, member.id)));
  return row?.state;
}

describe("'Who can message me' (decision 0670)", () => {
  it("is 'anyone' by default: a first message lands in the inbox and is announced, as the spec says", async () => {
    const a = await createTestMember(t);
    const b = await createTestMember(t);
    expect(await getMessagePolicy(t.ctx, b.viewer)).toBe("anyone");
    const { chatId } = await startConversation(t.ctx, a.viewer, { recipientId: b.id, text: "hi" });
    expect((await listChats(t.ctx, b.viewer)).items.map((item) => item.id)).toEqual([chatId]);
    expect(await countRequests(t.ctx, b.viewer)).toBe(0);
    expect(await notificationsOf(b)).toEqual([{ type: "new chat" }]);
    expect(await mailTo(b)).toHaveLength(1);
  });

  it("refuses a value that is not one of the two choices, changing nothing", async () => {
    const a = await createTestMember(t);
    await expect(
      setMessagePolicy(t.ctx, a.viewer, { policy: "nobody" as unknown as "known" }),
    ).rejects.toMatchObject({ status: 400 });
    expect(await getMessagePolicy(t.ctx, a.viewer)).toBe("anyone");
  });
});

describe("Requests (decision 0671)", () => {
  it("keeps a stranger's first message in Requests: no notification, no mail, out of the counts", async () => {
    const { stranger, careful } = await strangerAndCareful();
    const { chatId, created } = await startConversation(t.ctx, stranger.viewer, {
      recipientId: careful.id,
      text: "Still selling the bike?",
    });
    expect(created).toBe(true);
    expect(await stateOf(chatId, careful)).toBe("pending");
    expect((await listChats(t.ctx, careful.viewer)).items).toEqual([]);
    expect((await listChats(t.ctx, careful.viewer, { box: "requests" })).items).toMatchObject([
      { id: chatId, lastMessage: "Still selling the bike?", unread: true },
    ]);
    expect(await countRequests(t.ctx, careful.viewer)).toBe(1);
    expect(await countUnreadChats(t.ctx, careful.viewer)).toBe(0);
    const shell = await readShellCounts(t.ctx, careful.viewer, careful.viewer.campusId);
    expect([shell.unreadChats, shell.unreadNotifications]).toEqual([0, 0]);
    expect(await notificationsOf(careful)).toEqual([]);
    expect(await mailTo(careful)).toEqual([]);

    // Later messages stay there, unheard; the sender sees their chat as usual, only 'Delivered'.
    const { messageId } = await sendMessage(t.ctx, stranger.viewer, chatId, { text: "Hello?" });
    expect(await notificationsOf(careful)).toEqual([]);
    expect(await countRequests(t.ctx, careful.viewer)).toBe(1);
    expect((await listChats(t.ctx, stranger.viewer)).items.map((item) => item.id)).toEqual([chatId]);

    // Opening the request neither reads it nor accepts it.
    expect((await getChat(t.ctx, careful.viewer, chatId))?.request).toBe("pending");
    expect(await markChatRead(t.ctx, careful.viewer, chatId)).toBe(false);
    expect((await getChat(t.ctx, stranger.viewer, chatId))?.receipt).toEqual({
      messageId,
      status: "Delivered",
    });
    expect((await getChat(t.ctx, stranger.viewer, chatId))?.request).toBeNull();
  });

  it("lets a known person's first message into the inbox: a deal between the two", async () => {
    const { stranger: buyer, careful: seller } = await strangerAndCareful();
    const post = await createTestPost(t, seller.viewer, { text: "Bike", listing: { price: "40" } });
    await t.ctx.db
      .insert(deals)
      .values({ campusId: seller.viewer.campusId, postId: post.id, sellerId: seller.id, buyerId: buyer.id });
    expect(
      await firstMessageGoesToRequests(t.ctx.db, t.ctx, { senderId: buyer.id, recipientId: seller.id }),
    ).toBe(false);
    const { chatId } = await startConversation(t.ctx, buyer.viewer, {
      recipientId: seller.id,
      text: "Pick up?",
    });
    expect(await stateOf(chatId, seller)).toBeNull();
    expect(await countUnreadChats(t.ctx, seller.viewer)).toBe(1);
    expect(await notificationsOf(seller)).toEqual([{ type: "new chat" }]);
  });

  it("does not count a cancelled deal as a trade", async () => {
    const { stranger: buyer, careful: seller } = await strangerAndCareful();
    const post = await createTestPost(t, seller.viewer, { text: "Desk", listing: { price: "20" } });
    await t.ctx.db.insert(deals).values({
      campusId: seller.viewer.campusId,
      postId: post.id,
      sellerId: seller.id,
      buyerId: buyer.id,
      state: "cancelled",
    });
    expect(
      await firstMessageGoesToRequests(t.ctx.db, t.ctx, { senderId: buyer.id, recipientId: seller.id }),
    ).toBe(true);
  });

  it("a reply from someone the careful student wrote to first is no request", async () => {
    const { stranger, careful } = await strangerAndCareful();
    const { chatId } = await startConversation(t.ctx, careful.viewer, {
      recipientId: stranger.id,
      text: "Hi",
    });
    await startConversation(t.ctx, stranger.viewer, { recipientId: careful.id, text: "Hey" });
    expect(await stateOf(chatId, careful)).toBeNull();
    expect(await notificationsOf(careful)).toEqual([{ type: "message" }]);
    expect(
      await firstMessageGoesToRequests(t.ctx.db, t.ctx, { senderId: stranger.id, recipientId: careful.id }),
    ).toBe(false);
  });

  it("Accept moves it to the inbox, unread; the sender then gets 'Seen' once it is opened", async () => {
    const { stranger, careful } = await strangerAndCareful();
    const { chatId, messageId } = await startConversation(t.ctx, stranger.viewer, {
      recipientId: careful.id,
      text: "Hi there",
    });
    await acceptRequest(t.ctx, careful.viewer, chatId);
    expect(await countRequests(t.ctx, careful.viewer)).toBe(0);
    expect((await listChats(t.ctx, careful.viewer)).items).toMatchObject([{ id: chatId, unread: true }]);
    expect(await countUnreadChats(t.ctx, careful.viewer)).toBe(1);
    expect(await markChatRead(t.ctx, careful.viewer, chatId)).toBe(true);
    expect((await getChat(t.ctx, stranger.viewer, chatId))?.receipt).toEqual({ messageId, status: "Seen" });
    await sendMessage(t.ctx, stranger.viewer, chatId, { text: "So?" });
    expect(await notificationsOf(careful)).toEqual([{ type: "message" }]);
    // Accepting twice: no longer a request.
    await expect(acceptRequest(t.ctx, careful.viewer, chatId)).rejects.toMatchObject({ status: 404 });
  });

  it("replying to a request accepts it", async () => {
    const { stranger, careful } = await strangerAndCareful();
    const { chatId } = await startConversation(t.ctx, stranger.viewer, {
      recipientId: careful.id,
      text: "Hi",
    });
    await sendMessage(t.ctx, careful.viewer, chatId, { text: "Hello" });
    expect(await stateOf(chatId, careful)).toBeNull();
    expect((await listChats(t.ctx, careful.viewer)).items.map((item) => item.id)).toEqual([chatId]);
  });

  it("Decline removes it without telling the sender; later messages stay out of sight", async () => {
    const { stranger, careful } = await strangerAndCareful();
    const { chatId } = await startConversation(t.ctx, stranger.viewer, {
      recipientId: careful.id,
      text: "Hi",
    });
    await declineRequest(t.ctx, careful.viewer, chatId);
    expect(await countRequests(t.ctx, careful.viewer)).toBe(0);
    expect((await listChats(t.ctx, careful.viewer)).items).toEqual([]);
    expect((await listChats(t.ctx, careful.viewer, { box: "requests" })).items).toEqual([]);
    await sendMessage(t.ctx, stranger.viewer, chatId, { text: "Hello??" });
    await startConversation(t.ctx, stranger.viewer, { recipientId: careful.id, text: "Anyone?" });
    expect(await countRequests(t.ctx, careful.viewer)).toBe(0);
    expect(await countUnreadChats(t.ctx, careful.viewer)).toBe(0);
    expect(await notificationsOf(careful)).toEqual([]);
    expect(await mailTo(careful)).toEqual([]);
    // The sender's side is unchanged: their chat, no 'Seen'.
    expect((await getChat(t.ctx, stranger.viewer, chatId))?.receipt?.status).toBe("Delivered");
  });

  it("Block declines the request and blocks the sender (decision 0230)", async () => {
    const { stranger, careful } = await strangerAndCareful();
    const { chatId } = await startConversation(t.ctx, stranger.viewer, {
      recipientId: careful.id,
      text: "Hi",
    });
    await blockRequestSender(t.ctx, careful.viewer, chatId);
    expect(await stateOf(chatId, careful)).toBe("declined");
    expect(await blockBetween(t.ctx.db, careful.id, stranger.id)).toBe("viewer-blocked");
    await expect(sendMessage(t.ctx, stranger.viewer, chatId, { text: "Hi?" })).rejects.toMatchObject({
      code: "blocked",
    });
  });

  it("answers 404 to anyone but the request's recipient, and for a chat that is no request", async () => {
    const { stranger, careful } = await strangerAndCareful();
    const other = await createTestMember(t);
    const { chatId } = await startConversation(t.ctx, stranger.viewer, {
      recipientId: careful.id,
      text: "Hi",
    });
    for (const attempt of [acceptRequest, declineRequest, blockRequestSender]) {
      await expect(attempt(t.ctx, other.viewer, chatId)).rejects.toMatchObject({ status: 404 });
      // The sender cannot accept on the recipient's behalf either.
      await expect(attempt(t.ctx, stranger.viewer, chatId)).rejects.toMatchObject({ status: 404 });
      await expect(attempt(t.ctx, careful.viewer, "not-a-uuid")).rejects.toMatchObject({ status: 404 });
    }
    expect(await stateOf(chatId, careful)).toBe("pending");
    expect(await blockBetween(t.ctx.db, other.id, stranger.id)).toBe("none");
  });
});

describe("a new student's warned first message (decision 0672)", () => {
  it("goes to Requests under 'anyone' when the sender is level 0, not when they are level 1", async () => {
    const newcomer = await createTestMember(t);
    const regular = await createTestMember(t);
    const open = await createTestMember(t);
    await t.ctx.db.update(user).set({ trustLevel: 0 }).where(eq(user.id, newcomer.id));
    // Locked, so the conversation gate's recount (decision 0660) leaves the level as set.
    await t.ctx.db
      .update(user)
      .set({ trustLevel: 1, trustLockedAt: t.ctx.clock.now() })
      .where(eq(user.id, regular.id));
    const flagged = await startConversation(
      t.ctx,
      newcomer.viewer,
      { recipientId: open.id, text: "Pay me first with a gift card" },
      { flagged: true },
    );
    expect(await stateOf(flagged.chatId, open)).toBe("pending");
    expect(await notificationsOf(open)).toEqual([]);
    const fromRegular = await startConversation(
      t.ctx,
      regular.viewer,
      { recipientId: open.id, text: "Pay me first with a gift card" },
      { flagged: true },
    );
    expect(await stateOf(fromRegular.chatId, open)).toBeNull();
    // Unflagged, a level-0 student's first message lands in the inbox under 'anyone'.
    const quiet = await createTestMember(t);
    await t.ctx.db.update(user).set({ trustLevel: 0 }).where(eq(user.id, quiet.id));
    const plain = await startConversation(t.ctx, quiet.viewer, { recipientId: open.id, text: "Hi" });
    expect(await stateOf(plain.chatId, open)).toBeNull();
    expect(await countRequests(t.ctx, open.viewer)).toBe(1);
  });
});
