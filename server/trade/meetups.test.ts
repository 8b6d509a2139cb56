import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, createTestPost, type TestMember } from "../../tests/support/factories";
import { createSiteAdmin } from "../../tests/support/moderation";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { blockUser, unblockUser } from "../chats/blocks";
import { startConversation } from "../chats/conversations";
import { listMessages } from "../chats/messages";
import { chatMessages, chats, deals, meetups, notifications } from "../db/schema";
import { notificationWhat } from "../notifications/texts";
import { sendMeetupReminders } from "./meetup-reminders";
import { MEETUP_MESSAGES, wallTimeToInstant } from "./meetup-rules.shared";
import { addMeetupSpot, archiveMeetupSpot } from "./meetup-spots";
import { acceptMeetup, getChatMeetups, proposeMeetup } from "./meetups";

let t: TestContext;
let admin: TestMember;
let seller: TestMember;
let buyer: TestMember;
let stranger: TestMember;
let chatId: string;
let library: string;
let police: string;
let utSpot: string;
const START = new Date("2026-03-02T15:00:00Z");

beforeAll(async () => {
  t = await createTestContext();
  admin = await createSiteAdmin(t);
  seller = await createTestMember(t, { fullName: "Sally Seller" });
  buyer = await createTestMember(t, { fullName: "Bob Buyer" });
  stranger = await createTestMember(t, { fullName: "Stan Stranger" });
  const spot = { campusId: "ou", hours: "8 AM – 10 PM", rules: "Meet inside, by the front desk." };
  ({ spotId: library } = await addMeetupSpot(t.ctx, admin.viewer, {
    ...spot,
    name: "Bizzell Memorial Library",
    kind: "library",
    address: "401 W Brooks St, Norman, OK 73019",
  }));
  ({ spotId: police } = await addMeetupSpot(t.ctx, admin.viewer, {
    ...spot,
    name: "OU Police safe exchange zone",
    kind: "police",
    address: "1 Main & Co. Rd #2, Norman, OK",
  }));
  ({ spotId: utSpot } = await addMeetupSpot(t.ctx, admin.viewer, {
    ...spot,
    campusId: "ut",
    name: "PCL Library",
    kind: "library",
    address: "101 E 21st St, Austin, TX",
  }));
  ({ chatId } = await startConversation(t.ctx, buyer.viewer, { recipientId: seller.id, text: "Hi!" }));
});
afterAll(() => t.close());

async function meetupNotices(meetupId: string) {
  return t.ctx.db
    .select({ to: notifications.userId, actor: notifications.actorId, event: notifications.event })
    .from(notifications)
    .where(eq(notifications.meetupId, meetupId));
}

async function meetupCount() {
  return (await t.ctx.db.select({ id: meetups.id }).from(meetups)).length;
}

describe("proposing a meetup (decision 0611)", () => {
  it("sends a card at a spot and a time in the campus's zone, and tells the other", async () => {
    t.clock.set(START);
    const { meetupId, messageId } = await proposeMeetup(t.ctx, buyer.viewer, chatId, {
      spotId: police,
      meetsAt: "2026-03-03T15:00",
    });
    const [row] = await t.ctx.db.select().from(meetups).where(eq(meetups.id, meetupId));
    // OU is in Norman, OK: Central time, six hours behind UTC in March before daylight saving.
    expect(row).toMatchObject({
      state: "proposed",
      proposedBy: buyer.id,
      proposedTo: seller.id,
      meetsAt: new Date("2026-03-03T21:00:00Z"),
    });
    const page = await listMessages(t.ctx, seller.viewer, chatId);
    expect(page.items.at(-1)).toMatchObject({ id: messageId, meetupId, own: false });
    const view = await getChatMeetups(t.ctx, seller.viewer, chatId);
    expect(view.cards[meetupId]).toMatchObject({
      state: "proposed",
      own: false,
      canAnswer: true,
      when: "Tue, Mar 3, 3:00 PM CST",
      spot: {
        name: "OU Police safe exchange zone",
        kindLabel: "Campus police safe exchange zone",
        hours: "8 AM – 10 PM",
        rules: "Meet inside, by the front desk.",
        mapsUrl:
          "https://www.google.com/maps/search/?api=1&query=1%20Main%20%26%20Co.%20Rd%20%232%2C%20Norman%2C%20OK",
      },
    });
    expect(view.spots.map((s) => s.id)).toEqual([library, police]);
    expect(view).toMatchObject({ timeZone: "America/Chicago", earliest: "2026-03-02T09:01" });
    expect((await getChatMeetups(t.ctx, buyer.viewer, chatId)).cards[meetupId]).toMatchObject({
      own: true,
      canAnswer: false,
    });
    expect(await meetupNotices(meetupId)).toEqual([{ to: seller.id, actor: buyer.id, event: "proposed" }]);
    expect(notificationWhat("meetup", "proposed")).toBe("proposed a meetup");
  });

  it("refuses bad input with a message and changes nothing; a stranger's chat is a 404", async () => {
    t.clock.set(START);
    const before = await meetupCount();
    const archived = (
      await addMeetupSpot(t.ctx, admin.viewer, {
        campusId: "ou",
        name: "Old spot",
        kind: "other",
        address: "Gone St",
      })
    ).spotId;
    await archiveMeetupSpot(t.ctx, admin.viewer, { campusId: "ou", spotId: archived });
    const refusals: [Record<string, string>, number, string][] = [
      [{ spotId: crypto.randomUUID() }, 400, MEETUP_MESSAGES.spotRequired],
      [{ spotId: "not-an-id" }, 400, MEETUP_MESSAGES.spotRequired],
      [{ spotId: utSpot }, 400, MEETUP_MESSAGES.spotRequired],
      [{ spotId: archived }, 400, MEETUP_MESSAGES.spotRequired],
      [{ meetsAt: "2026-03-02T08:59" }, 400, MEETUP_MESSAGES.timePast],
      [{ meetsAt: "2026-04-01T10:01" }, 400, MEETUP_MESSAGES.timeTooFar],
      [{ meetsAt: "" }, 400, MEETUP_MESSAGES.timeRequired],
      [{ meetsAt: "tomorrow at noon" }, 400, MEETUP_MESSAGES.timeRequired],
      [{ meetsAt: "2026-02-30T10:00" }, 400, MEETUP_MESSAGES.timeRequired],
      // Daylight saving starts on March 8, 2026 at 2 AM: 2:30 does not happen in Norman.
      [{ meetsAt: "2026-03-08T02:30" }, 400, MEETUP_MESSAGES.timeRequired],
      [{ meetsAt: "x".repeat(10_000) }, 400, MEETUP_MESSAGES.timeRequired],
    ];
    for (const [change, status, message] of refusals) {
      await expect(
        proposeMeetup(t.ctx, buyer.viewer, chatId, {
          spotId: library,
          meetsAt: "2026-03-04T12:00",
          ...change,
        }),
      ).rejects.toMatchObject({ status, message });
    }
    await expect(
      proposeMeetup(t.ctx, stranger.viewer, chatId, { spotId: library, meetsAt: "2026-03-04T12:00" }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      proposeMeetup(t.ctx, buyer.viewer, crypto.randomUUID(), {
        spotId: library,
        meetsAt: "2026-03-04T12:00",
      }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(getChatMeetups(t.ctx, stranger.viewer, chatId)).rejects.toMatchObject({ status: 404 });
    expect(await meetupCount()).toBe(before);
    // 30 days ahead to the minute is still within bounds (daylight saving began on the way).
    expect(wallTimeToInstant("2026-04-01T10:00", "America/Chicago")?.toISOString()).toBe(
      "2026-04-01T15:00:00.000Z",
    );
    await proposeMeetup(t.ctx, buyer.viewer, chatId, { spotId: library, meetsAt: "2026-04-01T10:00" });
  });

  it("a blocked pair cannot propose", async () => {
    await blockUser(t.ctx, seller.viewer, buyer.id);
    await expect(
      proposeMeetup(t.ctx, buyer.viewer, chatId, { spotId: library, meetsAt: "2026-03-04T12:00" }),
    ).rejects.toMatchObject({ code: "blocked" });
    await unblockUser(t.ctx, seller.viewer, buyer.id);
  });
});

describe("answering a meetup (decision 0611)", () => {
  it("only the other accepts; a stranger gets the 404; twice is 'This meetup changed'", async () => {
    t.clock.set(START);
    const { meetupId } = await proposeMeetup(t.ctx, seller.viewer, chatId, {
      spotId: library,
      meetsAt: "2026-03-05T12:00",
    });
    await expect(acceptMeetup(t.ctx, seller.viewer, chatId, { meetupId })).rejects.toMatchObject({
      status: 403,
      message: MEETUP_MESSAGES.onlyOther,
    });
    await expect(acceptMeetup(t.ctx, stranger.viewer, chatId, { meetupId })).rejects.toMatchObject({
      status: 404,
    });
    await expect(
      acceptMeetup(t.ctx, buyer.viewer, chatId, { meetupId: crypto.randomUUID() }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(acceptMeetup(t.ctx, buyer.viewer, chatId, { meetupId: "1; drop" })).rejects.toMatchObject({
      status: 400,
    });
    expect(await acceptMeetup(t.ctx, buyer.viewer, chatId, { meetupId })).toEqual({ meetupId, dealId: null });
    await expect(acceptMeetup(t.ctx, buyer.viewer, chatId, { meetupId })).rejects.toMatchObject({
      status: 409,
      message: MEETUP_MESSAGES.changed,
    });
    const view = await getChatMeetups(t.ctx, buyer.viewer, chatId);
    expect(view.accepted).toMatchObject({ id: meetupId, state: "accepted" });
    expect(view.cards[meetupId]?.canAnswer).toBe(false);
    expect(await meetupNotices(meetupId)).toEqual([
      { to: buyer.id, actor: seller.id, event: "proposed" },
      { to: seller.id, actor: buyer.id, event: "accepted" },
    ]);
  });

  it("'Suggest another' replaces the open proposal; an answered one cannot be replaced again", async () => {
    t.clock.set(START);
    const first = await proposeMeetup(t.ctx, buyer.viewer, chatId, {
      spotId: library,
      meetsAt: "2026-03-06T12:00",
    });
    const second = await proposeMeetup(t.ctx, seller.viewer, chatId, {
      spotId: police,
      meetsAt: "2026-03-06T17:30",
      replacesId: first.meetupId,
    });
    const view = await getChatMeetups(t.ctx, seller.viewer, chatId);
    expect(view.cards[first.meetupId]).toMatchObject({ state: "replaced", canAnswer: false });
    expect(view.cards[second.meetupId]).toMatchObject({ state: "proposed", own: true });
    await expect(acceptMeetup(t.ctx, buyer.viewer, chatId, first)).rejects.toMatchObject({ status: 403 });
    await expect(acceptMeetup(t.ctx, seller.viewer, chatId, first)).rejects.toMatchObject({ status: 409 });
    await expect(
      proposeMeetup(t.ctx, buyer.viewer, chatId, {
        spotId: library,
        meetsAt: "2026-03-06T18:00",
        replacesId: first.meetupId,
      }),
    ).rejects.toMatchObject({ status: 409 });
    // A proposal whose time passed reads 'past' and cannot be accepted.
    t.clock.set(new Date("2026-03-07T00:00:00Z"));
    expect((await getChatMeetups(t.ctx, buyer.viewer, chatId)).cards[second.meetupId]?.state).toBe("past");
    await expect(acceptMeetup(t.ctx, buyer.viewer, chatId, second)).rejects.toMatchObject({
      status: 409,
      message: MEETUP_MESSAGES.passed,
    });
  });

  it("an accepted meetup is attached to the chat's active deal", async () => {
    t.clock.set(START);
    const post = await createTestPost(t, seller.viewer, {
      text: "Desk lamp",
      listing: { price: "15" },
    });
    const { chatId: dealChat } = await startConversation(t.ctx, buyer.viewer, {
      recipientId: seller.id,
      text: "Lamp?",
    });
    expect(dealChat).toBe(chatId);
    await t.ctx.db.update(chats).set({ postId: post.id }).where(eq(chats.id, chatId));
    const [deal] = await t.ctx.db
      .insert(deals)
      .values({ campusId: "ou", postId: post.id, chatId, sellerId: seller.id, buyerId: buyer.id })
      .returning({ id: deals.id });
    const { meetupId } = await proposeMeetup(t.ctx, buyer.viewer, chatId, {
      spotId: police,
      meetsAt: "2026-03-04T10:00",
    });
    expect(await acceptMeetup(t.ctx, seller.viewer, chatId, { meetupId })).toEqual({
      meetupId,
      dealId: deal?.id,
    });
    const [row] = await t.ctx.db.select().from(meetups).where(eq(meetups.id, meetupId));
    expect(row).toMatchObject({ state: "accepted", dealId: deal?.id, postId: post.id });
    // The chat's earlier accepted meetup gave way to this one.
    expect((await getChatMeetups(t.ctx, buyer.viewer, chatId)).accepted?.id).toBe(meetupId);
    const cards = await t.ctx.db
      .select({ id: chatMessages.id })
      .from(chatMessages)
      .where(and(eq(chatMessages.chatId, chatId), eq(chatMessages.meetupId, meetupId)));
    expect(cards).toHaveLength(1);
  });
});

describe("the reminder (decision 0612)", () => {
  it("goes to both an hour before, once, by the clock", async () => {
    t.clock.set(START);
    const a = await createTestMember(t, { fullName: "Ann Able" });
    const b = await createTestMember(t, { fullName: "Ben Baker" });
    const { chatId: chat } = await startConversation(t.ctx, a.viewer, { recipientId: b.id, text: "hey" });
    const { meetupId } = await proposeMeetup(t.ctx, a.viewer, chat, {
      spotId: library,
      meetsAt: "2026-03-02T13:00",
    });
    await acceptMeetup(t.ctx, b.viewer, chat, { meetupId });
    // Accepted at 9:00 for 13:00 (Central): nothing before 12:00.
    await sendMeetupReminders(t.ctx);
    t.clock.set(new Date("2026-03-02T17:59:00Z"));
    await sendMeetupReminders(t.ctx);
    expect((await meetupNotices(meetupId)).filter((n) => n.event === "reminder")).toEqual([]);
    t.clock.set(new Date("2026-03-02T18:00:30Z"));
    await sendMeetupReminders(t.ctx);
    t.clock.advance(60_000);
    await sendMeetupReminders(t.ctx);
    const reminders = (await meetupNotices(meetupId)).filter((n) => n.event === "reminder");
    expect(reminders).toEqual(
      expect.arrayContaining([
        { to: a.id, actor: b.id, event: "reminder" },
        { to: b.id, actor: a.id, event: "reminder" },
      ]),
    );
    expect(reminders).toHaveLength(2);
    expect(notificationWhat("meetup", "reminder")).toBe("meets you in an hour");
  });

  it("is not sent for a meetup agreed within its last hour", async () => {
    t.clock.set(new Date("2026-03-02T20:00:00Z"));
    const a = await createTestMember(t, { fullName: "Cat Cole" });
    const b = await createTestMember(t, { fullName: "Dan Dee" });
    const { chatId: chat } = await startConversation(t.ctx, a.viewer, { recipientId: b.id, text: "hey" });
    const { meetupId } = await proposeMeetup(t.ctx, a.viewer, chat, {
      spotId: library,
      meetsAt: "2026-03-02T14:30",
    });
    await acceptMeetup(t.ctx, b.viewer, chat, { meetupId });
    await sendMeetupReminders(t.ctx);
    expect((await meetupNotices(meetupId)).filter((n) => n.event === "reminder")).toEqual([]);
    const [row] = await t.ctx.db.select().from(meetups).where(eq(meetups.id, meetupId));
    expect(row?.reminderSentAt).not.toBeNull();
  });
});
