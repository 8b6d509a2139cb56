import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import * as columns from "./columns";

/**
 * spec 2 §3 Chat: one conversation between two members of a campus. `from_user` started it;
 * the pair is unique in either direction (the expression index below), so two people starting
 * a chat with each other at once end up in one chat (spec 2 §4 'Chat'). Messages are numbered
 * per chat (`last_seq`), which makes read state exact per message (decision 0231).
 */
export const chats = pgTable(
  "chats",
  {
    id: columns.id(),
    campusId: columns.campusId(),
    fromUserId: columns.userRef("from_user_id"),
    toUserId: columns.userRef("to_user_id"),
    /** spec 2 §3 last_message: the inbox's preview line (or a reaction notice, spec 2 §4). */
    lastMessage: text("last_message").notNull().default(""),
    lastMessageId: uuid("last_message_id"),
    /** The number of the latest message; the next message takes last_seq + 1 under this row's lock. */
    lastSeq: integer("last_seq").notNull().default(0),
    /**
     * Decision 0600: the listing the conversation is about (the latest one it was opened from or an
     * offer was made on); its header shows that listing and its deal. No foreign key: a deleted
     * listing leaves the chat, and its header shows it gone.
     */
    postId: uuid("post_id"),
    createdAt: columns.createdAt(),
    lastModified: columns.lastModified(),
  },
  (table) => [
    // Decision 0571: deleting an account finds its chats by either side.
    // Decision 0650: also the conversations a student started today (the trust level's daily limit).
    index("chats_from_user_created_idx").on(table.fromUserId, table.createdAt),
    index("chats_to_user_idx").on(table.toUserId),
    uniqueIndex("chats_pair_unique").on(
      table.campusId,
      sql`least(${table.fromUserId}, ${table.toUserId})`,
      sql`greatest(${table.fromUserId}, ${table.toUserId})`,
    ),
  ],
);

/**
 * Each participant's side of a chat (spec 2 §3 current_users and read): the inbox is read
 * from here, newest first, and `unread` is the spec's 'read' list (true while this member
 * has not read the latest message). `last_read_seq` is the last message this member has
 * read, so 'Delivered' / 'Seen' is exact per message (decision 0231).
 */
export const chatMembers = pgTable(
  "chat_members",
  {
    chatId: uuid("chat_id")
      .notNull()
      .references(() => chats.id, { onDelete: "cascade" }),
    userId: columns.userRef("user_id"),
    otherUserId: columns.userRef("other_user_id"),
    campusId: columns.campusId(),
    unread: boolean("unread").notNull().default(false),
    lastReadSeq: integer("last_read_seq").notNull().default(0),
    /**
     * Decision 0650: this member's side of a first message that waits in Requests ('pending'), or
     * that they declined ('declined': gone from their lists, the sender not told). Null in the inbox.
     */
    requestState: text("request_state", { enum: ["pending", "declined"] }),
    /** A copy of the chat's last_modified, so the inbox is one index range per member. */
    lastModified: columns.lastModified(),
  },
  (table) => [
    primaryKey({ columns: [table.chatId, table.userId] }),
    // spec 2 §7 'User chats … ordered lastModified descending', keyset on (last_modified, chat_id).
    index("chat_members_inbox_idx").on(
      table.userId,
      table.campusId,
      table.lastModified.desc(),
      table.chatId.desc(),
    ),
    // spec 2 §7 'Unread chats where read contains the current user (count)'.
    index("chat_members_unread_idx").on(table.userId, table.campusId).where(sql`${table.unread}`),
    // Decision 0650: the Requests tab, newest first, and its count.
    index("chat_members_requests_idx")
      .on(table.userId, table.campusId, table.lastModified.desc(), table.chatId.desc())
      .where(sql`${table.requestState} = 'pending'`),
  ],
);

/**
 * spec 2 §3 Message: text (plain, ≤ 500 by the posts' rule), or a shared post, or one photo.
 * `post_id` has no foreign key on purpose: a shared post that is deleted later shows
 * '* Post deleted **' (spec 2 §4), so the message must keep the id. `liked_at` is the
 * recipient's heart (only the recipient may like, spec 2 §6: one person, so one column).
 */
export const chatMessages = pgTable(
  "chat_messages",
  {
    id: columns.id(),
    chatId: uuid("chat_id")
      .notNull()
      .references(() => chats.id, { onDelete: "cascade" }),
    campusId: columns.campusId(),
    senderId: columns.userRef("sender_id"),
    seq: integer("seq").notNull(),
    text: text("text").notNull().default(""),
    postId: uuid("post_id"),
    /** Storage key of the photo's large WebP (images/messages/{messageId}/…); null without a photo. */
    imgPath: text("img_path"),
    thumbPath: text("thumb_path"),
    imgWidth: integer("img_width"),
    imgHeight: integer("img_height"),
    likedAt: columns.time("liked_at"),
    /** Decision 0543: 'removed' by a site admin after a report; its text and photo are no longer shown. */
    moderationState: text("moderation_state", { enum: ["removed"] }),
    /**
     * Decision 0600: a card in the thread, an offer's or a meetup's, drawn from its row as
     * it is now (so the card updates in place). No foreign key: both go with the chat, as the message does.
     */
    offerId: uuid("offer_id"),
    meetupId: uuid("meetup_id"),
    /** Decision 0600: a system line (an offer closed, a deal made or cancelled), worded from this event. */
    systemEvent: text("system_event"),
    /**
     * Decision 0650: the safety rule whose warning card the recipient sees under this message, drawn
     * by the product from the rule (never from the message's text).
     */
    safetyRuleId: uuid("safety_rule_id"),
    createdAt: columns.createdAt(),
  },
  (table) => [
    // spec 2 §7 'Messages of a chat … newest first, pages of 15', keyset on seq.
    uniqueIndex("chat_messages_chat_seq_unique").on(table.chatId, table.seq),
    // Decision 0232: the sending limit counts a sender's messages of the last minute.
    index("chat_messages_sender_created_idx").on(table.senderId, table.createdAt.desc()),
    // Decision 0650: a sender's warned messages of the last 24 hours (the flag counts their recipients).
    index("chat_messages_sender_warned_idx")
      .on(table.senderId, table.createdAt.desc())
      .where(sql`${table.safetyRuleId} is not null`),
  ],
);

/**
 * Blocks (decision 0230): `blocker` blocked `blocked`. Listed in settings newest
 * first; either direction stops new messages between the two.
 */
export const userBlocks = pgTable(
  "user_blocks",
  {
    blockerId: columns.userRef("blocker_id"),
    blockedId: columns.userRef("blocked_id"),
    createdAt: columns.createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.blockerId, table.blockedId] }),
    index("user_blocks_list_idx").on(table.blockerId, table.createdAt.desc(), table.blockedId.desc()),
  ],
);
