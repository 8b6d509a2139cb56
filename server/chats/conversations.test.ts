import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, pngFile, type TestMember } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { chatMembers, chatMessages, chats } from "../db/schema";
import { userEventsAfter } from "../realtime/events";
import { deleteChat, findConversationWith, getChat, listChats, startConversation } from "./conversations";
import { listMessages, sendMessage, toggleMessageLike } from "./messages";
import { searchCampusPeople } from "./people";
import { markChatRead } from "./read-state";

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
