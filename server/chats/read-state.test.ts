import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, createTestPost, type TestMember } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { readShellCounts } from "../notifications/badges";
import { countUnreadNotifications, listNotifications } from "../notifications/notifications";
import { toggleSave } from "../posts/saves";
import { userEventsAfter } from "../realtime/events";
import { getChat, listChats, startConversation } from "./conversations";
import { sendMessage, toggleMessageLike } from "./messages";
import { countUnreadChats, markChatRead } from "./read-state";

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

async function pair(): Promise<{ a: TestMember; b: TestMember }> {
  return {
    a: await createTestMember(t, { fullName: "Ann Able" }),
    b: await createTestMember(t, { fullName: "Ben Baker" }),
  };
}

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
