import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestMember,
  createTestPost,
  mp4File,
  pngFile,
  type TestMember,
  textFileNamedPng,
} from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { chatMembers, chatMessages, chats } from "../db/schema";
import { readShellCounts } from "../notifications/badges";
import { countUnreadNotifications, listNotifications } from "../notifications/notifications";
import { setListingStatus } from "../posts/listing-status";
import { removeWithReplies } from "../posts/removal";
import { toggleSave } from "../posts/saves";
import { userEventsAfter } from "../realtime/events";
import { blockUser, listBlockedUsers, unblockUser, viewerBlocked } from "./blocks";
import {
  countUnreadChats,
  deleteChat,
  findConversationWith,
  getChat,
  listChats,
  listMessages,
  markChatRead,
  sendMessage,
  startConversation,
  toggleMessageLike,
} from "./chats";
import { searchCampusPeople } from "./people";
import { CHAT_MESSAGES } from "./schemas";

let t: TestContext;
let seller: TestMember;
let buyer: TestMember;

beforeAll(async () => {
  t = await createTestContext();
  seller = await createTestMember(t, { fullName: "Sally Seller" });
  buyer = await createTestMember(t, { fullName: "Bob Buyer" });
});
afterAll(() => t.close());

async function pair(): Promise<{ a: TestMember; b: TestMember }> {
  return {
    a: await createTestMember(t, { fullName: "Ann Able" }),
    b: await createTestMember(t, { fullName: "Ben Baker" }),
  };
}

const MISSING = "6f1c9a36-0000-4000-8000-000000000001";

describe("starting a conversation (spec 2 §4 'Chat')", () => {
  it("creates the chat with its first message, then finds it again from either side", async () => {
    const { a, b } = await pair();
    const first = await startConversation(t.ctx, a.viewer, {
      recipientId: b.id,
      text: "Is it still available?",
    });
    expect(first.created).toBe(true);
    const reply = await startConversation(t.ctx, b.viewer, { recipientId: a.id, text: "Yes!" });
    expect(reply).toMatchObject({ chatId: first.chatId, created: false });
    const again = await startConversation(t.ctx, a.viewer, { recipientId: b.id, text: "Great" });
    expect(again).toMatchObject({ chatId: first.chatId, created: false });
    expect(await findConversationWith(t.ctx, b.viewer, a.id)).toBe(first.chatId);
    const [n] = await t.ctx.db.select({ n: count() }).from(chats).where(eq(chats.id, first.chatId));
    expect(n?.n).toBe(1);
    const page = await listMessages(t.ctx, a.viewer, first.chatId);
    expect(page.items.map((m) => [m.text, m.own])).toEqual([
      ["Is it still available?", true],
      ["Yes!", false],
      ["Great", true],
    ]);
  });

  it("meets in one chat when both start at the same moment", async () => {
    const { a, b } = await pair();
    const results = await Promise.all([
      startConversation(t.ctx, a.viewer, { recipientId: b.id, text: "hi" }),
      startConversation(t.ctx, b.viewer, { recipientId: a.id, text: "hello" }),
    ]);
    expect(results[0].chatId).toBe(results[1].chatId);
    expect(results.filter((r) => r.created)).toHaveLength(1);
  });

  it("refuses visitors (sign-in 'message'), the school-unverified, oneself and other campuses", async () => {
    await expect(
      startConversation(t.ctx, null, { recipientId: seller.id, text: "hi" }),
    ).rejects.toMatchObject({
      refusal: { kind: "sign-in", reason: "message" },
    });
    const unverified = await createTestMember(t, { schoolVerified: false });
    await expect(
      startConversation(t.ctx, unverified.viewer, { recipientId: seller.id, text: "hi" }),
    ).rejects.toMatchObject({ refusal: { kind: "verify-school" } });
    await expect(
      startConversation(t.ctx, seller.viewer, { recipientId: seller.id, text: "hi" }),
    ).rejects.toMatchObject({ code: "forbidden" });
    const elsewhere = await createTestMember(t, { campusId: "ut" });
    await expect(
      startConversation(t.ctx, seller.viewer, { recipientId: elsewhere.id, text: "hi" }),
    ).rejects.toMatchObject({ code: "user-not-found" });
  });
});

describe("sending (spec 2 §5 'Chat message')", () => {
  it("takes 500 characters by the posts' rule and refuses 501 with 'Error: Too many characters!'", async () => {
    const { chatId } = await startConversation(t.ctx, buyer.viewer, { recipientId: seller.id, text: "hi" });
    await sendMessage(t.ctx, buyer.viewer, chatId, { text: "x".repeat(500) });
    // Two lines of 249: 498 characters and one line break counting 2 = 500.
    await sendMessage(t.ctx, buyer.viewer, chatId, { text: `${"y".repeat(249)}\n${"y".repeat(249)}` });
    await expect(sendMessage(t.ctx, buyer.viewer, chatId, { text: "x".repeat(501) })).rejects.toMatchObject({
      code: "too-many-characters",
      message: CHAT_MESSAGES.tooManyCharacters,
    });
    await expect(
      sendMessage(t.ctx, buyer.viewer, chatId, { text: `${"y".repeat(250)}\n${"y".repeat(249)}` }),
    ).rejects.toMatchObject({ message: "Error: Too many characters!" });
    await expect(sendMessage(t.ctx, buyer.viewer, chatId, { text: "   " })).rejects.toMatchObject({
      code: "empty",
    });
  });

  it("stores one photo re-encoded at images/messages/{messageId}/ and refuses other files by content", async () => {
    const { a, b } = await pair();
    const { chatId } = await startConversation(t.ctx, a.viewer, { recipientId: b.id, text: "photo next" });
    const { messageId } = await sendMessage(t.ctx, a.viewer, chatId, { files: [await pngFile("bike.png")] });
    const keys = [...t.storage.objects.keys()].filter((key) =>
      key.startsWith(`images/messages/${messageId}/`),
    );
    expect(keys).toHaveLength(2);
    for (const key of keys) expect(t.storage.objects.get(key)?.contentType).toBe("image/webp");
    const page = await listMessages(t.ctx, b.viewer, chatId);
    expect(page.items.at(-1)?.photo).toMatchObject({ width: 64, height: 48 });
    await expect(sendMessage(t.ctx, a.viewer, chatId, { files: [textFileNamedPng()] })).rejects.toMatchObject(
      {
        code: "unsupported-file",
        message: "Only photos & videos are allowed!",
      },
    );
    await expect(
      sendMessage(t.ctx, a.viewer, chatId, { files: [await pngFile("1.png"), await pngFile("2.png")] }),
    ).rejects.toMatchObject({ code: "unsupported-file" });
    await expect(sendMessage(t.ctx, a.viewer, chatId, { files: [mp4File()] })).rejects.toMatchObject({
      message: CHAT_MESSAGES.noVideos,
    });
  });

  it("shares a post as a card, which reads '* Post deleted **' once the post is gone", async () => {
    const { a, b } = await pair();
    const post = await createTestPost(t, b.viewer, { text: "Desk lamp, $10" });
    const { chatId } = await startConversation(t.ctx, a.viewer, { recipientId: b.id, postId: post.id });
    let card = (await listMessages(t.ctx, a.viewer, chatId)).items[0]?.sharedPost;
    expect(card).toMatchObject({ deleted: false, id: post.id, text: "Desk lamp, $10", author: "Ben B." });
    await removeWithReplies(t.ctx, b.viewer, post.id, "post", () => true);
    card = (await listMessages(t.ctx, a.viewer, chatId)).items[0]?.sharedPost;
    expect(card).toEqual({ deleted: true, id: post.id });
  });

  it("shows the shared listing's price and its status as it is when the thread loads (decision 0456)", async () => {
    const { a, b } = await pair();
    const post = await createTestPost(t, b.viewer, {
      text: "Mini fridge",
      listing: { price: "$40", priceTerms: "offers" },
    });
    const { chatId } = await startConversation(t.ctx, a.viewer, { recipientId: b.id, postId: post.id });
    const cardOf = async () => (await listMessages(t.ctx, a.viewer, chatId)).items[0]?.sharedPost;
    expect(await cardOf()).toMatchObject({
      price: "$40 · Open to offers",
      kind: "selling",
      status: "available",
    });
    await setListingStatus(t.ctx, b.viewer, { postId: post.id, status: "reserved" });
    expect(await cardOf()).toMatchObject({ price: "$40 · Open to offers", status: "reserved" });
    await setListingStatus(t.ctx, b.viewer, { postId: post.id, status: "sold" });
    expect(await cardOf()).toMatchObject({ status: "sold" });
    // A post without listing details has no price line.
    const plain = await createTestPost(t, b.viewer, { text: "Hello" });
    await sendMessage(t.ctx, a.viewer, chatId, { postId: plain.id });
    expect((await listMessages(t.ctx, a.viewer, chatId)).items[1]?.sharedPost).toMatchObject({
      price: null,
      status: "available",
    });
  });

  it("pages of 15, newest last, older pages before a message number", async () => {
    const { a, b } = await pair();
    const { chatId } = await startConversation(t.ctx, a.viewer, { recipientId: b.id, text: "m1" });
    for (let i = 2; i <= 20; i++)
      await sendMessage(t.ctx, i % 2 ? a.viewer : b.viewer, chatId, { text: `m${i}` });
    const newest = await listMessages(t.ctx, b.viewer, chatId);
    expect(newest.items.map((m) => m.text)).toEqual(Array.from({ length: 15 }, (_, i) => `m${i + 6}`));
    expect(newest.olderBefore).toBe(6);
    const older = await listMessages(t.ctx, b.viewer, chatId, { before: newest.olderBefore });
    expect(older.items.map((m) => m.text)).toEqual(["m1", "m2", "m3", "m4", "m5"]);
    expect(older.olderBefore).toBeNull();
  });
});

describe("read state (spec 2 §4 'Chat', decision 0231)", () => {
  it("leaves the chat unread for the recipient, Delivered until they open it, then Seen", async () => {
    const { a, b } = await pair();
    const { chatId, messageId } = await startConversation(t.ctx, a.viewer, { recipientId: b.id, text: "hi" });
    expect(await countUnreadChats(t.ctx, b.viewer)).toBe(1);
    expect(await countUnreadChats(t.ctx, a.viewer)).toBe(0);
    expect((await listChats(t.ctx, b.viewer)).items[0]).toMatchObject({
      id: chatId,
      unread: true,
      lastMessage: "hi",
    });
    expect((await getChat(t.ctx, a.viewer, chatId))?.receipt).toEqual({ messageId, status: "Delivered" });
    expect(await markChatRead(t.ctx, b.viewer, chatId)).toBe(true);
    expect(await markChatRead(t.ctx, b.viewer, chatId)).toBe(false);
    expect(await countUnreadChats(t.ctx, b.viewer)).toBe(0);
    expect((await getChat(t.ctx, a.viewer, chatId))?.receipt).toEqual({ messageId, status: "Seen" });
    // A newer message is Delivered again until read; the receipt follows the latest own message.
    const second = await sendMessage(t.ctx, a.viewer, chatId, { text: "still there?" });
    expect((await getChat(t.ctx, a.viewer, chatId))?.receipt).toEqual({
      messageId: second.messageId,
      status: "Delivered",
    });
    // Replying means having read: b's answer leaves a's message seen, and b's own Delivered.
    await sendMessage(t.ctx, b.viewer, chatId, { text: "yes" });
    expect((await getChat(t.ctx, a.viewer, chatId))?.receipt?.status).toBe("Seen");
    expect(await countUnreadChats(t.ctx, a.viewer)).toBe(1);
    expect((await getChat(t.ctx, b.viewer, chatId))?.receipt?.status).toBe("Delivered");
    await markChatRead(t.ctx, a.viewer, chatId);
    expect((await getChat(t.ctx, b.viewer, chatId))?.receipt?.status).toBe("Seen");
  });

  it("clears the chat's own notifications when it is opened, so nothing is read twice (decision 0455)", async () => {
    const { a, b } = await pair();
    const post = await createTestPost(t, b.viewer, { text: "Bike for sale" });
    // b is told of a new chat, then of a message in it.
    const { chatId } = await startConversation(t.ctx, a.viewer, { recipientId: b.id, text: "hi" });
    await sendMessage(t.ctx, a.viewer, chatId, { text: "still for sale?" });
    // Another chat's message and a save stay unread: only the opened chat's are cleared.
    const other = await createTestMember(t, { fullName: "Olga Other" });
    await startConversation(t.ctx, other.viewer, { recipientId: b.id, text: "hello" });
    await toggleSave(t.ctx, a.viewer, post.id);
    expect(await countUnreadNotifications(t.ctx, b.viewer)).toBe(4);

    const start = (await userEventsAfter(t.ctx.db, b.id, 0)).at(-1)?.seq ?? 0;
    expect(await markChatRead(t.ctx, b.viewer, chatId)).toBe(true);
    expect(await countUnreadNotifications(t.ctx, b.viewer)).toBe(2);
    const left = await listNotifications(t.ctx, b.viewer);
    const leftTypes = left.items.filter((item) => item.unread).map((item) => item.type);
    expect(leftTypes.sort()).toEqual(["like", "new chat"]);
    // b's other tabs hear of it and read their badges again (decision 0210).
    expect((await userEventsAfter(t.ctx.db, b.id, start)).map((event) => event.type)).toEqual(["chat"]);

    // Replying means having read (decision 0231): the reply clears what came before it.
    await sendMessage(t.ctx, a.viewer, chatId, { text: "can you hold it?" });
    expect(await countUnreadNotifications(t.ctx, b.viewer)).toBe(1);
    const reply = await sendMessage(t.ctx, b.viewer, chatId, { text: "yes" });
    expect(await countUnreadNotifications(t.ctx, b.viewer)).toBe(0);

    // A heart leaves the chat read, but its notification is cleared by the next opening, and told.
    await toggleMessageLike(t.ctx, a.viewer, chatId, reply.messageId);
    expect(await countUnreadChats(t.ctx, b.viewer)).toBe(1);
    expect(await countUnreadNotifications(t.ctx, b.viewer)).toBe(1);
    const before = (await userEventsAfter(t.ctx.db, b.id, 0)).at(-1)?.seq ?? 0;
    expect(await markChatRead(t.ctx, b.viewer, chatId)).toBe(true);
    expect(await userEventsAfter(t.ctx.db, b.id, before)).toHaveLength(1);
    expect(await markChatRead(t.ctx, b.viewer, chatId)).toBe(false);
    // The chat counts and the notification counts agree: nothing of this chat is left unread.
    expect(await readShellCounts(t.ctx, b.viewer, b.viewer.campusId)).toMatchObject({
      unreadChats: 1,
      unreadNotifications: 0,
    });
  });

  it("lists chats newest first in keyset pages", async () => {
    const lonely = await createTestMember(t, { fullName: "Lou Lister" });
    const others = [];
    for (let i = 0; i < 17; i++) others.push(await createTestMember(t, { fullName: `Person Number` }));
    for (const [i, other] of others.entries()) {
      t.clock.advance(1000);
      await startConversation(t.ctx, other.viewer, { recipientId: lonely.id, text: `hello ${i}` });
    }
    const first = await listChats(t.ctx, lonely.viewer);
    expect(first.items).toHaveLength(15);
    expect(first.items[0]?.lastMessage).toBe("hello 16");
    const second = await listChats(t.ctx, lonely.viewer, { cursor: first.nextCursor });
    expect(second.items.map((item) => item.lastMessage)).toEqual(["hello 1", "hello 0"]);
    expect(second.nextCursor).toBeNull();
    expect(await countUnreadChats(t.ctx, lonely.viewer)).toBe(17);
    // Seventeen sign-ups through the real password hashing: the time they need on a busy machine.
  }, 120_000);
});

describe("likes (spec 2 §4, §6)", () => {
  it("lets only the recipient like, as a toggle that sets the reaction notice", async () => {
    const { a, b } = await pair();
    const { chatId, messageId } = await startConversation(t.ctx, a.viewer, {
      recipientId: b.id,
      text: "deal?",
    });
    await expect(toggleMessageLike(t.ctx, a.viewer, chatId, messageId)).rejects.toMatchObject({
      code: "forbidden",
    });
    expect(await toggleMessageLike(t.ctx, b.viewer, chatId, messageId)).toEqual({ liked: true });
    expect((await listMessages(t.ctx, a.viewer, chatId)).items[0]?.liked).toBe(true);
    expect((await listChats(t.ctx, a.viewer)).items[0]?.lastMessage).toBe(CHAT_MESSAGES.reacted("Ben"));
    expect(await toggleMessageLike(t.ctx, b.viewer, chatId, messageId)).toEqual({ liked: false });
    expect((await listChats(t.ctx, a.viewer)).items[0]?.lastMessage).toBe(CHAT_MESSAGES.removedHeart("Ben"));
    const outsider = await createTestMember(t);
    await expect(toggleMessageLike(t.ctx, outsider.viewer, chatId, messageId)).rejects.toMatchObject({
      code: "not-found",
    });
  });
});

describe("only participants act (spec 2 §6), whatever ids are sent", () => {
  it("answers 'This conversation doesn't exist' to anyone else and to ids from another chat", async () => {
    const { a, b } = await pair();
    const { chatId, messageId } = await startConversation(t.ctx, a.viewer, {
      recipientId: b.id,
      text: "private",
    });
    const outsider = await createTestMember(t);
    const notFound = { code: "not-found", message: "This conversation doesn't exist" };
    expect(await getChat(t.ctx, outsider.viewer, chatId)).toBeNull();
    await expect(listMessages(t.ctx, outsider.viewer, chatId)).rejects.toMatchObject(notFound);
    await expect(sendMessage(t.ctx, outsider.viewer, chatId, { text: "hi" })).rejects.toMatchObject(notFound);
    await expect(markChatRead(t.ctx, outsider.viewer, chatId)).rejects.toMatchObject(notFound);
    await expect(deleteChat(t.ctx, outsider.viewer, chatId)).rejects.toMatchObject(notFound);
    await expect(toggleMessageLike(t.ctx, outsider.viewer, chatId, messageId)).rejects.toMatchObject(
      notFound,
    );
    await expect(sendMessage(t.ctx, a.viewer, MISSING, { text: "hi" })).rejects.toMatchObject(notFound);
    await expect(sendMessage(t.ctx, a.viewer, "not-a-uuid", { text: "hi" })).rejects.toMatchObject(notFound);
    // A message of another chat, liked through a chat the viewer is in.
    const own = await startConversation(t.ctx, outsider.viewer, { recipientId: b.id, text: "other chat" });
    await expect(toggleMessageLike(t.ctx, b.viewer, own.chatId, messageId)).rejects.toMatchObject(notFound);
    expect(await listMessages(t.ctx, a.viewer, chatId)).toMatchObject({ items: [{ text: "private" }] });
    await expect(listMessages(t.ctx, null, chatId)).rejects.toMatchObject({ refusal: { kind: "sign-in" } });
  });
});

describe("deleting a conversation (spec 2 §4, decision 0234)", () => {
  it("removes the messages, photos and chat for both, and tells both", async () => {
    const { a, b } = await pair();
    const { chatId } = await startConversation(t.ctx, a.viewer, { recipientId: b.id, text: "hi" });
    const { messageId } = await sendMessage(t.ctx, b.viewer, chatId, { files: [await pngFile()] });
    const before = await userEventsAfter(t.ctx.db, a.id, 0);
    expect(await deleteChat(t.ctx, b.viewer, chatId)).toEqual({ failedFiles: [] });
    expect(await getChat(t.ctx, a.viewer, chatId)).toBeNull();
    expect((await listChats(t.ctx, a.viewer)).items).toEqual([]);
    expect((await listChats(t.ctx, b.viewer)).items).toEqual([]);
    const [rows] = await t.ctx.db
      .select({ n: count() })
      .from(chatMessages)
      .where(eq(chatMessages.chatId, chatId));
    expect(rows?.n).toBe(0);
    const [members] = await t.ctx.db
      .select({ n: count() })
      .from(chatMembers)
      .where(eq(chatMembers.chatId, chatId));
    expect(members?.n).toBe(0);
    expect([...t.storage.objects.keys()].some((key) => key.includes(messageId))).toBe(false);
    const events = await userEventsAfter(t.ctx.db, a.id, before.at(-1)?.seq ?? 0);
    expect(events.map((event) => event.data)).toEqual([{ chatId, kind: "deleted" }]);
    // A new conversation can start afresh.
    expect((await startConversation(t.ctx, a.viewer, { recipientId: b.id, text: "again" })).created).toBe(
      true,
    );
  });
});

describe("deleting when files cannot be removed (decision 0234)", () => {
  it("still removes every row and reports the files left behind", async () => {
    const { a, b } = await pair();
    const { chatId } = await startConversation(t.ctx, a.viewer, {
      recipientId: b.id,
      files: [await pngFile()],
    });
    const remove = t.storage.delete;
    t.storage.delete = async () => {
      throw new Error("disk gone");
    };
    try {
      const { failedFiles } = await deleteChat(t.ctx, a.viewer, chatId);
      expect(failedFiles).toHaveLength(2);
    } finally {
      t.storage.delete = remove;
    }
    expect(await getChat(t.ctx, b.viewer, chatId)).toBeNull();
  });
});

describe("blocks (decision 0230)", () => {
  it("stops new conversations and messages both ways, keeps the chat readable, lists and lifts the block", async () => {
    const { a, b } = await pair();
    const { chatId } = await startConversation(t.ctx, a.viewer, { recipientId: b.id, text: "hi" });
    await blockUser(t.ctx, b.viewer, a.id);
    await blockUser(t.ctx, b.viewer, a.id);
    await expect(sendMessage(t.ctx, a.viewer, chatId, { text: "hello?" })).rejects.toMatchObject({
      code: "blocked",
      message: CHAT_MESSAGES.blockedYou,
    });
    await expect(sendMessage(t.ctx, b.viewer, chatId, { text: "x" })).rejects.toMatchObject({
      message: "You blocked this user",
    });
    await expect(startConversation(t.ctx, a.viewer, { recipientId: b.id, text: "hi" })).rejects.toMatchObject(
      {
        code: "blocked",
      },
    );
    const [first] = (await listMessages(t.ctx, b.viewer, chatId)).items;
    await expect(toggleMessageLike(t.ctx, b.viewer, chatId, first?.id ?? "")).rejects.toMatchObject({
      code: "blocked",
    });
    expect(await getChat(t.ctx, b.viewer, chatId)).toMatchObject({
      viewerBlocked: true,
      blockedByOther: false,
    });
    expect(await getChat(t.ctx, a.viewer, chatId)).toMatchObject({
      viewerBlocked: false,
      blockedByOther: true,
    });
    expect((await listMessages(t.ctx, b.viewer, chatId)).items).toHaveLength(1);
    expect((await listBlockedUsers(t.ctx, b.viewer)).map((person) => person.id)).toEqual([a.id]);
    expect(await listBlockedUsers(t.ctx, a.viewer)).toEqual([]);
    expect(await viewerBlocked(t.ctx, b.viewer, a.id)).toBe(true);
    expect(await viewerBlocked(t.ctx, a.viewer, b.id)).toBe(false);
    await unblockUser(t.ctx, b.viewer, a.id);
    await sendMessage(t.ctx, a.viewer, chatId, { text: "thanks" });
    expect(await listBlockedUsers(t.ctx, b.viewer)).toEqual([]);
  });
});

describe("events (decision 0210)", () => {
  it("numbers each participant's chat events in commit order under concurrent sends", async () => {
    const { a, b } = await pair();
    const { chatId } = await startConversation(t.ctx, a.viewer, { recipientId: b.id, text: "0" });
    const start = (await userEventsAfter(t.ctx.db, b.id, 0)).at(-1)?.seq ?? 0;
    const sent = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        sendMessage(t.ctx, i % 2 ? a.viewer : b.viewer, chatId, { text: `${i}` }),
      ),
    );
    // Numbered without gaps: six chat events, and the notifications of a's three messages to b.
    const all = await userEventsAfter(t.ctx.db, b.id, start);
    expect(all.map((event) => event.seq)).toEqual(Array.from({ length: 9 }, (_, i) => start + i + 1));
    expect(all.filter((event) => event.type === "notification")).toHaveLength(3);
    const events = all.filter((event) => event.type === "chat");
    expect(events).toHaveLength(6);
    // The events' order is the messages' order in the chat: a reader never sees a later message first.
    const rows = await t.ctx.db
      .select({ id: chatMessages.id, seq: chatMessages.seq })
      .from(chatMessages)
      .where(and(eq(chatMessages.chatId, chatId)));
    const seqOf = new Map(rows.map((row) => [row.id, row.seq]));
    const order = events.map((event) => seqOf.get(String(event.data.messageId)));
    expect(order).toEqual([...order].sort((x, y) => (x ?? 0) - (y ?? 0)));
    expect(new Set(sent.map((s) => s.messageId)).size).toBe(6);
    expect(events.every((event) => event.type === "chat" && event.data.kind === "message")).toBe(true);
  });
});

describe("people search (spec 1 §5 'New-message search')", () => {
  it("finds members of the campus by name or username, only above one character", async () => {
    const found = await createTestMember(t, { fullName: "Quentin Zebulon" });
    await createTestMember(t, { fullName: "Quentin Zebulon", campusId: "ut" });
    expect(await searchCampusPeople(t.ctx, buyer.viewer, "q", 8)).toEqual([]);
    const hits = await searchCampusPeople(t.ctx, buyer.viewer, "quentin z", 8);
    expect(hits.map((hit) => hit.id)).toEqual([found.id]);
    expect(
      (await searchCampusPeople(t.ctx, buyer.viewer, found.viewer.username, 8)).map((hit) => hit.id),
    ).toEqual([found.id]);
    expect(await searchCampusPeople(t.ctx, found.viewer, "Quentin", 8)).toEqual([]);
    expect(await searchCampusPeople(t.ctx, buyer.viewer, "%_", 8)).toEqual([]);
    expect(await searchCampusPeople(t.ctx, null, "quentin", 8)).toEqual([]);
  });
});
