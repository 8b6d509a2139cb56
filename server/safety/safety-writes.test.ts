import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestComment,
  createTestMember,
  createTestPost,
  type TestMember,
} from "../../tests/support/factories";
import { createSiteAdmin } from "../../tests/support/moderation";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { startConversation } from "../chats/conversations";
import { listMessages, sendMessage } from "../chats/messages";
import { chatMessages, moderationItems, notifications, posts, user } from "../db/schema";
import { getModerationItem } from "../moderation/item-view";
import { listQueue, readQueueFilters } from "../moderation/queue";
import { SAFETY_FLAG_REASON } from "./flag";
import { syncBuiltinSafetyRules } from "./rules";
import { PHONE_NUDGE } from "./rules-stopping";
import { PAYMENT_FIRST_WARNING } from "./rules-warnings";

/**
 * docs/product/safety.md on a database: what a block, a nudge, a warning and the flag do to the
 * writes of sendMessage, startConversation and createPost, inside their transactions.
 */

let t: TestContext;
const HOUR = 3_600_000;

beforeAll(async () => {
  t = await createTestContext();
  await syncBuiltinSafetyRules(t.ctx.db, t.clock.now());
});
afterAll(() => t.close());

/** A member whose account is `hours` old by the clock (default a month: past the new-account rule). */
async function member(name: string, hours = 24 * 30): Promise<TestMember> {
  const created = await createTestMember(t, { fullName: name });
  await t.ctx.db
    .update(user)
    .set({ createdAt: new Date(t.clock.now().getTime() - hours * HOUR) })
    .where(eq(user.id, created.id));
  return created;
}

async function messagesOf(chatId: string) {
  return t.ctx.db
    .select({ text: chatMessages.text, safetyRuleId: chatMessages.safetyRuleId })
    .from(chatMessages)
    .where(eq(chatMessages.chatId, chatId));
}

async function notificationCount(userId: string): Promise<number> {
  const [row] = await t.ctx.db
    .select({ count: sql<number>`count(*)::int` })
    .from(notifications)
    .where(eq(notifications.userId, userId));
  return row?.count ?? 0;
}

describe("block", () => {
  it("refuses a verification-code request with the reason, and neither stores nor delivers it", async () => {
    const a = await member("Ann Able");
    const b = await member("Ben Baker");
    const { chatId } = await startConversation(t.ctx, a.viewer, {
      recipientId: b.id,
      text: "Is the desk free?",
    });
    const before = await notificationCount(b.id);
    await expect(
      sendMessage(t.ctx, a.viewer, chatId, { text: "what's the code Google sent you" }),
    ).rejects.toMatchObject({
      code: "safety-blocked",
      status: 422,
      message: expect.stringContaining("verification code"),
    });
    expect((await messagesOf(chatId)).map((row) => row.text)).toEqual(["Is the desk free?"]);
    expect(await notificationCount(b.id)).toBe(before);
  });

  it("refuses a first message too: no conversation is started", async () => {
    const a = await member("Cat Cole");
    const b = await member("Dan Doe");
    await expect(
      startConversation(t.ctx, a.viewer, {
        recipientId: b.id,
        text: "Campus Buy Sell support here, verify your account",
      }),
    ).rejects.toMatchObject({ code: "safety-blocked" });
    const [row] = await t.ctx.db
      .select({ count: sql<number>`count(*)::int` })
      .from(chatMessages)
      .where(eq(chatMessages.senderId, a.id));
    expect(row?.count).toBe(0);
  });

  it("refuses any link from an account under 24 hours old, and lets an older one share it", async () => {
    const young = await member("Eve New", 2);
    const older = await member("Fay Old", 25);
    const b = await member("Gus Gray");
    await expect(
      startConversation(t.ctx, young.viewer, { recipientId: b.id, text: "photos at example.com/desk" }),
    ).rejects.toMatchObject({ code: "safety-blocked", message: expect.stringContaining("a day old") });
    await expect(
      startConversation(t.ctx, older.viewer, { recipientId: b.id, text: "photos at example.com/desk" }),
    ).resolves.toMatchObject({ created: true });
    // A shortener is refused whatever the account's age.
    await expect(
      startConversation(t.ctx, older.viewer, { recipientId: b.id, text: "more at bit.ly/3xYz" }),
    ).rejects.toMatchObject({ code: "safety-blocked", message: expect.stringContaining("shorteners") });
  });
});

describe("nudge", () => {
  it("answers a phone number with the nudge and stores nothing until the sender confirms", async () => {
    const a = await member("Hal Hill");
    const b = await member("Ivy Ives");
    const { chatId } = await startConversation(t.ctx, a.viewer, { recipientId: b.id, text: "Hi!" });
    await expect(
      sendMessage(t.ctx, a.viewer, chatId, { text: "text me at (405) 555-0123" }),
    ).rejects.toMatchObject({ code: "safety-nudge", status: 409, message: PHONE_NUDGE });
    expect(await messagesOf(chatId)).toHaveLength(1);
    await sendMessage(t.ctx, a.viewer, chatId, {
      text: "text me at (405) 555-0123",
      acknowledgedNudge: true,
    });
    const stored = await messagesOf(chatId);
    expect(stored.map((row) => row.text)).toContain("text me at (405) 555-0123");
    expect(stored.every((row) => row.safetyRuleId === null)).toBe(true);
  });
});

describe("warn", () => {
  it("stores the message with its rule; the card is in the recipient's thread only, worded by the rule", async () => {
    const a = await member("Jo Jones");
    const b = await member("Kim King");
    const { chatId } = await startConversation(t.ctx, a.viewer, {
      recipientId: b.id,
      text: "pls zelle $20 first to hold it",
    });
    const [stored] = await messagesOf(chatId);
    expect(stored?.safetyRuleId).not.toBeNull();
    const theirs = await listMessages(t.ctx, b.viewer, chatId);
    expect(theirs.items[0]?.warning).toEqual({ ruleKey: "payment-first", message: PAYMENT_FIRST_WARNING });
    const own = await listMessages(t.ctx, a.viewer, chatId);
    expect(own.items[0]?.warning).toBeNull();
  });

  it("cannot be forged: a message quoting the card's words carries no card", async () => {
    const a = await member("Lee Long");
    const b = await member("Max Moore");
    const { chatId } = await startConversation(t.ctx, a.viewer, {
      recipientId: b.id,
      text: `⚠ ${PAYMENT_FIRST_WARNING.replace("payment", "paying")} Report`,
    });
    expect((await listMessages(t.ctx, b.viewer, chatId)).items[0]?.warning).toBeNull();
  });
});

describe("flag (decision 0653)", () => {
  it("limits a sender who draws payment-first warnings to 3 students in 24 hours, and reports them to site admins", async () => {
    const scammer = await member("Ned Nash");
    const targets = [
      await member("Ola One"),
      await member("Pat Two"),
      await member("Quin Three"),
      await member("Rae Four"),
    ];
    const [first, second, third, fourth] = targets as [TestMember, TestMember, TestMember, TestMember];
    await startConversation(t.ctx, scammer.viewer, {
      recipientId: first.id,
      text: "venmo me a deposit first",
    });
    // A day later the first no longer counts.
    t.clock.advance(25 * HOUR);
    const { chatId: secondChat } = await startConversation(t.ctx, scammer.viewer, {
      recipientId: second.id,
      text: "zelle me first to hold it",
    });
    await startConversation(t.ctx, scammer.viewer, {
      recipientId: third.id,
      text: "I'll pay with gift cards, send the codes",
    });
    expect(await limitOf(scammer.id)).toBeNull();
    // The same student again is not a new one.
    await sendMessage(t.ctx, scammer.viewer, secondChat, { text: "cash app me upfront please" });
    expect(await limitOf(scammer.id)).toBeNull();
    await startConversation(t.ctx, scammer.viewer, {
      recipientId: first.id,
      text: "still there? pay first on zelle",
    });
    const until = await limitOf(scammer.id);
    expect(until?.getTime()).toBe(t.clock.now().getTime() + 24 * HOUR);

    const [item] = await t.ctx.db
      .select()
      .from(moderationItems)
      .where(and(eq(moderationItems.targetKind, "user"), eq(moderationItems.targetId, scammer.id)));
    expect(item).toMatchObject({ state: "open", toAdmins: true, autoReason: SAFETY_FLAG_REASON });
    // The queue and the item read the reason, where reporters' reasons go.
    const admin = await createSiteAdmin(t, { fullName: "Ada Admin" });
    const queue = await listQueue(t.ctx, admin.viewer, readQueueFilters({}));
    expect(queue.items.find((row) => row.id === item?.id)).toMatchObject({
      autoReason: SAFETY_FLAG_REASON,
      reporters: 0,
    });
    const view = await getModerationItem(t.ctx, admin.viewer, item?.id ?? "");
    expect(view.item.autoReason).toBe(SAFETY_FLAG_REASON);

    await expect(
      startConversation(t.ctx, scammer.viewer, { recipientId: fourth.id, text: "hi, is it available?" }),
    ).rejects.toMatchObject({
      code: "conversations-limited",
      message: expect.stringContaining("until March"),
    });
    // Existing conversations continue.
    await expect(
      sendMessage(t.ctx, scammer.viewer, secondChat, { text: "ok see you at 5" }),
    ).resolves.toBeTruthy();
    // A day later the limit is over, by the clock.
    t.clock.advance(24 * HOUR + 1);
    await expect(
      startConversation(t.ctx, scammer.viewer, { recipientId: fourth.id, text: "hi, is it available?" }),
    ).resolves.toMatchObject({ created: true });
  });
});

async function limitOf(userId: string): Promise<Date | null> {
  const [row] = await t.ctx.db
    .select({ until: user.conversationsLimitedUntil })
    .from(user)
    .where(eq(user.id, userId));
  return row?.until ?? null;
}

describe("listings", () => {
  it.each([
    ["a phone number", "Desk, $40. Call 405-555-0199", "phone number"],
    ["an e-mail address", "Desk, $40. Write to sam.seller@gmail.com", "e-mail address"],
    ["a link", "Desk, $40. More photos on example.com/desk", "link"],
    ["a verification-code request", "Desk. Send me the 6 digit code Google texts you", "verification code"],
  ])("refuses %s in a listing's text with a message, and writes nothing", async (_what, text, words) => {
    const seller = await member("Sam Seller");
    await expect(createTestPost(t, seller.viewer, { text })).rejects.toMatchObject({
      code: "safety-blocked",
      message: expect.stringContaining(words),
    });
    const [row] = await t.ctx.db
      .select({ count: sql<number>`count(*)::int` })
      .from(posts)
      .where(eq(posts.authorId, seller.id));
    expect(row?.count).toBe(0);
  });

  it("takes ordinary listing text: course numbers, 'e.g.', 'node.js', prices and times", async () => {
    const seller = await member("Tia Text");
    await expect(
      createTestPost(t, seller.viewer, {
        text: "node.js book, e.g. for CS 2334. $25, pick up at Dale Hall after 3:30. Venmo or cash at the meetup.",
      }),
    ).resolves.toMatchObject({ id: expect.any(String) });
  });
});

describe("comments (docs/product/safety.md 'Comments')", () => {
  it("refuses a comment asking for a verification code or posing as staff, and writes nothing", async () => {
    const seller = await member("Cal Commented");
    const scammer = await member("Sid Scammer");
    const listing = await createTestPost(t, seller.viewer, { text: "Lamp, $10" });
    for (const text of [
      "Is it still there? Send me the 6 digit code Google texts you first",
      "Campus Buy Sell support here: your listing is on hold, reply with your password",
    ]) {
      await expect(createTestComment(t, scammer.viewer, listing.id, { text })).rejects.toMatchObject({
        code: "safety-blocked",
      });
    }
    const [row] = await t.ctx.db
      .select({ count: sql<number>`count(*)::int` })
      .from(posts)
      .where(eq(posts.authorId, scammer.id));
    expect(row?.count).toBe(0);
  });

  it("takes an ordinary comment, a phone number included (the listing-only refusals do not apply)", async () => {
    const seller = await member("Cora Comments");
    const buyer = await member("Bo Buyer");
    const listing = await createTestPost(t, seller.viewer, { text: "Chair, $15" });
    await expect(
      createTestComment(t, buyer.viewer, listing.id, {
        text: "Still available? I can pick up at 3:30, cash at the meetup.",
      }),
    ).resolves.toMatchObject({ id: expect.any(String) });
  });
});
