import { randomUUID } from "node:crypto";
import { and, desc, eq, isNull, or } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import { assertNotBlocked, requireMemberChat, requireReader, requireSender } from "../chats/access";
import { publishChatEvent } from "../chats/chat-events";
import { appendMessage, assertWithinSendingLimit, lockSender } from "../chats/messages";
import type { AppContext } from "../context";
import type { Queryable, Tx } from "../db/client";
import { chatMessages, chats, deals, type MeetupSpotKind, meetupSpots, meetups } from "../db/schema";
import { notify } from "../notifications/notify";
import { parseInput } from "../validation";
import {
  ACCEPTED_SHOWN_AFTER_MS,
  campusTimeZone,
  DAY_MS,
  formatMeetupTime,
  instantToWallTime,
  invalidMeetupInput,
  MEETUP_MAX_DAYS_AHEAD,
  MEETUP_MESSAGES,
  type MeetupCardState,
  MeetupError,
  type MeetupRefInput,
  mapsUrl,
  meetupRefSchema,
  type ProposeMeetupInput,
  proposeMeetupSchema,
  SPOT_KIND_LABELS,
  timeZoneName,
  wallTimeToInstant,
} from "./meetup-rules.shared";
import { listCampusSpots, type MeetupSpotView } from "./meetup-spots";

/**
 * Meetups in a conversation (decisions 0611-0613, docs/product/meetups.md): one of the two
 * proposes a spot of the campus and a time, as a card in the chat; the other accepts or suggests
 * another. An accepted meetup is attached to the chat's active deal (read, never written here)
 * and both are reminded an hour before by the meetup-reminders job.
 */

/** How many of a chat's meetups its page reads (its cards and the one at the top). */
const CARDS_READ = 50;

function zoneOf(ctx: AppContext, campusId: string): string {
  return campusTimeZone(ctx.campuses.get(campusId)?.state);
}

/** Decision 0611: the time must be ahead, and at most MEETUP_MAX_DAYS_AHEAD days ahead. */
function checkTime(now: Date, meetsAt: Date | null): Date {
  if (!meetsAt) throw new MeetupError("invalid-input", MEETUP_MESSAGES.timeRequired, "meetsAt");
  if (meetsAt.getTime() <= now.getTime())
    throw new MeetupError("invalid-input", MEETUP_MESSAGES.timePast, "meetsAt");
  if (meetsAt.getTime() > now.getTime() + MEETUP_MAX_DAYS_AHEAD * DAY_MS)
    throw new MeetupError("invalid-input", MEETUP_MESSAGES.timeTooFar, "meetsAt");
  return meetsAt;
}

/**
 * Decision 0611: proposes a meetup in a chat the viewer takes part in: a spot of the chat's
 * campus that is not archived, and a time ahead. It replaces the chat's open proposal (the one
 * 'Suggest another' answers, named by `replacesId`, must still be open). The card is a message
 * of the chat, so it numbers, notifies and goes live as messages do.
 */
export async function proposeMeetup(
  ctx: AppContext,
  viewer: Viewer | null,
  chatId: string,
  input: ProposeMeetupInput,
): Promise<{ meetupId: string; messageId: string }> {
  const sender = requireSender(viewer, ctx.clock.now());
  const chat = await requireMemberChat(ctx.db, sender, chatId);
  const { spotId, meetsAt: local, replacesId } = parseInput(proposeMeetupSchema, input, invalidMeetupInput);
  const now = ctx.clock.now();
  const meetsAt = checkTime(now, wallTimeToInstant(local, zoneOf(ctx, chat.campusId)));
  await assertWithinSendingLimit(ctx, ctx.db, sender.id);
  await assertNotBlocked(ctx.db, sender, chat.otherUserId);
  const messageId = randomUUID();
  return ctx.db.transaction(async (tx) => {
    await lockSender(tx, sender.id);
    const locked = await requireMemberChat(tx, sender, chatId, true);
    await assertWithinSendingLimit(ctx, tx, sender.id);
    await assertNotBlocked(tx, sender, locked.otherUserId);
    const [spot] = await tx
      .select({ id: meetupSpots.id, name: meetupSpots.name })
      .from(meetupSpots)
      .where(
        and(
          eq(meetupSpots.id, spotId),
          eq(meetupSpots.campusId, locked.campusId),
          isNull(meetupSpots.archivedAt),
        ),
      )
      .limit(1);
    if (!spot) throw new MeetupError("invalid-input", MEETUP_MESSAGES.spotRequired, "spotId");
    if (replacesId) {
      const [answered] = await tx
        .select({ state: meetups.state, proposedTo: meetups.proposedTo })
        .from(meetups)
        .where(and(eq(meetups.id, replacesId), eq(meetups.chatId, locked.id)))
        .limit(1);
      if (!answered) throw new MeetupError("not-found", MEETUP_MESSAGES.notFound);
      if (answered.state !== "proposed") throw new MeetupError("changed", MEETUP_MESSAGES.changed);
    }
    // One open proposal per chat: a new one (or 'Suggest another') replaces it.
    await tx
      .update(meetups)
      .set({ state: "replaced", decidedAt: now })
      .where(and(eq(meetups.chatId, locked.id), eq(meetups.state, "proposed")));
    const [about] = await tx.select({ postId: chats.postId }).from(chats).where(eq(chats.id, locked.id));
    const [row] = await tx
      .insert(meetups)
      .values({
        campusId: locked.campusId,
        chatId: locked.id,
        postId: about?.postId ?? null,
        spotId: spot.id,
        proposedBy: sender.id,
        proposedTo: locked.otherUserId,
        meetsAt,
        createdAt: now,
      })
      .returning({ id: meetups.id });
    if (!row) throw new Error("proposeMeetup: no row written");
    // The text is the inbox's preview and what a reader without the card sees.
    const message = { text: `Meetup proposed: ${spot.name}`, postId: null, photo: null };
    await appendMessage(ctx, tx, locked, sender.id, locked.otherUserId, message, messageId, null);
    await tx.update(chatMessages).set({ meetupId: row.id }).where(eq(chatMessages.id, messageId));
    await notify(tx, ctx, {
      type: "meetup",
      event: "proposed",
      to: locked.otherUserId,
      actorId: sender.id,
      campusId: locked.campusId,
      postId: about?.postId ?? null,
      chatId: locked.id,
      messageId,
      meetupId: row.id,
    });
    return { meetupId: row.id, messageId };
  });
}

/** The chat's active deal between the two, on the listing the chat is about, if there is one. */
async function activeDealOf(tx: Tx, chatId: string, a: string, b: string): Promise<string | null> {
  const [deal] = await tx
    .select({ id: deals.id })
    .from(deals)
    .innerJoin(chats, eq(chats.postId, deals.postId))
    .where(
      and(
        eq(chats.id, chatId),
        eq(deals.state, "active"),
        or(
          and(eq(deals.sellerId, a), eq(deals.buyerId, b)),
          and(eq(deals.sellerId, b), eq(deals.buyerId, a)),
        ),
      ),
    )
    .limit(1);
  return deal?.id ?? null;
}

/**
 * Decision 0611: the other person accepts an open proposal whose time is still ahead. It becomes
 * the chat's meetup (an earlier accepted one is replaced) and is attached to the chat's active
 * deal when there is one.
 */
export async function acceptMeetup(
  ctx: AppContext,
  viewer: Viewer | null,
  chatId: string,
  input: MeetupRefInput,
): Promise<{ meetupId: string; dealId: string | null }> {
  const member = requireSender(viewer, ctx.clock.now());
  await requireMemberChat(ctx.db, member, chatId);
  const { meetupId } = parseInput(meetupRefSchema, input, invalidMeetupInput);
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const chat = await requireMemberChat(tx, member, chatId, true);
    const [meetup] = await tx
      .select({
        id: meetups.id,
        state: meetups.state,
        proposedBy: meetups.proposedBy,
        meetsAt: meetups.meetsAt,
        postId: meetups.postId,
      })
      .from(meetups)
      .where(and(eq(meetups.id, meetupId), eq(meetups.chatId, chat.id)))
      .limit(1)
      .for("update");
    if (!meetup) throw new MeetupError("not-found", MEETUP_MESSAGES.notFound);
    if (meetup.proposedBy === member.id) throw new MeetupError("forbidden", MEETUP_MESSAGES.onlyOther);
    if (meetup.state !== "proposed") throw new MeetupError("changed", MEETUP_MESSAGES.changed);
    if (meetup.meetsAt.getTime() <= now.getTime()) throw new MeetupError("passed", MEETUP_MESSAGES.passed);
    await assertNotBlocked(tx, member, chat.otherUserId);
    const dealId = await activeDealOf(tx, chat.id, member.id, chat.otherUserId);
    await tx
      .update(meetups)
      .set({ state: "replaced", decidedAt: now })
      .where(and(eq(meetups.chatId, chat.id), eq(meetups.state, "accepted")));
    await tx
      .update(meetups)
      .set({ state: "accepted", decidedAt: now, dealId })
      .where(eq(meetups.id, meetup.id));
    const [card] = await tx
      .select({ id: chatMessages.id })
      .from(chatMessages)
      .where(and(eq(chatMessages.chatId, chat.id), eq(chatMessages.meetupId, meetup.id)))
      .limit(1);
    // Both browsers read the chat again: the card and the top of the conversation change.
    await publishChatEvent(tx, [member.id, chat.otherUserId], {
      chatId: chat.id,
      ...(card ? { messageId: card.id } : {}),
      kind: "message",
    });
    await notify(tx, ctx, {
      type: "meetup",
      event: "accepted",
      to: meetup.proposedBy,
      actorId: member.id,
      campusId: chat.campusId,
      postId: meetup.postId,
      chatId: chat.id,
      meetupId: meetup.id,
      dealId,
    });
    return { meetupId: meetup.id, dealId };
  });
}

export interface MeetupCardView {
  id: string;
  state: MeetupCardState;
  /** The viewer proposed it. */
  own: boolean;
  /** The viewer may Accept or Suggest another (the other side, while it is open and ahead). */
  canAnswer: boolean;
  dealId: string | null;
  /** In the campus's zone, with the zone's name (decision 0614). */
  when: string;
  meetsAt: string;
  spot: {
    name: string;
    kind: MeetupSpotKind;
    kindLabel: string;
    address: string;
    hours: string;
    rules: string;
    mapsUrl: string;
  };
}

export interface ChatMeetups {
  /** The cards of the chat's latest meetups, by id (a message names its card by `meetupId`). */
  cards: Record<string, MeetupCardView>;
  /** Decision 0613: the meetup shown at the top of the conversation. */
  accepted: MeetupCardView | null;
  /** What the proposal dialog offers: the campus's spots and the times it takes. */
  spots: (Pick<MeetupSpotView, "id" | "name" | "address"> & { kindLabel: string })[];
  timeZone: string;
  /** 'Central Time', for the dialog's hint. */
  timeZoneName: string;
  earliest: string;
  latest: string;
}

/** Decisions 0611-0614: what a conversation's page shows of its meetups, for the viewer. */
export async function getChatMeetups(
  ctx: AppContext,
  viewer: Viewer | null,
  chatId: string,
): Promise<ChatMeetups> {
  const member = requireReader(viewer);
  const chat = await requireMemberChat(ctx.db, member, chatId);
  const now = ctx.clock.now();
  const timeZone = zoneOf(ctx, chat.campusId);
  const [rows, spots] = await Promise.all([
    chatMeetupRows(ctx.db, chat.id),
    listCampusSpots(ctx.db, chat.campusId),
  ]);
  const cards: Record<string, MeetupCardView> = {};
  let accepted: MeetupCardView | null = null;
  for (const row of rows) {
    const past = row.meetsAt.getTime() <= now.getTime();
    const state: MeetupCardState = past && row.state === "proposed" ? "past" : row.state;
    const card: MeetupCardView = {
      id: row.id,
      state,
      own: row.proposedBy === member.id,
      canAnswer: state === "proposed" && row.proposedTo === member.id,
      dealId: row.dealId,
      when: formatMeetupTime(row.meetsAt, timeZone),
      meetsAt: row.meetsAt.toISOString(),
      spot: {
        name: row.name,
        kind: row.kind,
        kindLabel: SPOT_KIND_LABELS[row.kind],
        address: row.address,
        hours: row.hours,
        rules: row.rules,
        mapsUrl: mapsUrl(row.address),
      },
    };
    cards[row.id] = card;
    const shown = row.meetsAt.getTime() + ACCEPTED_SHOWN_AFTER_MS > now.getTime();
    if (!accepted && row.state === "accepted" && shown) accepted = card;
  }
  return {
    cards,
    accepted,
    spots: spots.map((spot) => ({
      id: spot.id,
      name: spot.name,
      address: spot.address,
      kindLabel: SPOT_KIND_LABELS[spot.kind],
    })),
    timeZone,
    timeZoneName: timeZoneName(timeZone, now),
    earliest: instantToWallTime(new Date(now.getTime() + 60_000), timeZone),
    latest: instantToWallTime(new Date(now.getTime() + MEETUP_MAX_DAYS_AHEAD * DAY_MS), timeZone),
  };
}

/** The chat's latest meetups with their spots (archived ones too: a card keeps its words). */
async function chatMeetupRows(db: Queryable, chatId: string) {
  return db
    .select({
      id: meetups.id,
      state: meetups.state,
      proposedBy: meetups.proposedBy,
      proposedTo: meetups.proposedTo,
      meetsAt: meetups.meetsAt,
      dealId: meetups.dealId,
      name: meetupSpots.name,
      kind: meetupSpots.kind,
      address: meetupSpots.address,
      hours: meetupSpots.hours,
      rules: meetupSpots.rules,
    })
    .from(meetups)
    .innerJoin(meetupSpots, eq(meetupSpots.id, meetups.spotId))
    .where(eq(meetups.chatId, chatId))
    .orderBy(desc(meetups.createdAt), desc(meetups.id))
    .limit(CARDS_READ);
}
