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
import { setListingStatus } from "../posts/listing-status";
import { removeWithReplies } from "../posts/removal";
import { blockUser, listBlockedUsers, unblockUser, viewerBlocked } from "./blocks";
import { getChat, listChats, startConversation } from "./conversations";
import { listMessages, sendMessage, toggleMessageLike } from "./messages";
import { CHAT_MESSAGES } from "./schemas.shared";

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
