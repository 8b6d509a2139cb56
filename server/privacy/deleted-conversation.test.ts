import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, requestHeaders, viewerOf } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { startConversation } from "../chats/conversations";
import { listMessages, sendMessage, toggleMessageLike } from "../chats/messages";
import { fileReport } from "../moderation/reports";
import { deleteAccount } from "./deletion";

// Decision 0571: a deleted account's conversation is read, not liked or reported, whatever is posted.

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

describe("a conversation with a deleted account (decision 0571)", () => {
  it("refuses a heart and a report on the deleted account's messages, and a report of the account", async () => {
    const leaver = await createTestMember(t, { fullName: "Lea Leaving" });
    const stayer = await createTestMember(t, { fullName: "Sam Staying" });
    const leaverViewer = await viewerOf(t, leaver.id);
    const stayerViewer = await viewerOf(t, stayer.id);
    const chat = await startConversation(t.ctx, stayerViewer, {
      recipientId: leaver.id,
      text: "Still there?",
    });
    const { messageId } = await sendMessage(t.ctx, leaverViewer, chat.chatId, { text: "Yes" });
    // Before the deletion, a heart is the stayer's to give.
    expect(await toggleMessageLike(t.ctx, stayerViewer, chat.chatId, messageId)).toEqual({ liked: true });

    await deleteAccount(
      t.ctx,
      t.auth,
      leaverViewer,
      { password: leaver.password, confirm: "on" },
      requestHeaders({ cookie: leaver.cookie }),
    );

    await expect(toggleMessageLike(t.ctx, stayerViewer, chat.chatId, messageId)).rejects.toMatchObject({
      code: "account-deleted",
    });
    await expect(
      fileReport(t.ctx, stayerViewer, { targetKind: "message", targetId: messageId, reason: "spam" }),
    ).rejects.toMatchObject({ code: "not-found" });
    await expect(
      fileReport(t.ctx, stayerViewer, { targetKind: "user", targetId: leaver.id, reason: "spam" }),
    ).rejects.toMatchObject({ code: "not-found" });
    // Nothing changed: the message is still there, with the heart given before.
    const page = await listMessages(t.ctx, stayerViewer, chat.chatId);
    expect(page.items.find((item) => item.id === messageId)).toMatchObject({ text: "Yes", liked: true });
  });
});
