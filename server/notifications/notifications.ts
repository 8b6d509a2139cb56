import { and, eq, inArray, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { BADGE_MESSAGES, BADGE_RENEWAL_PATH } from "../accounts/badge.shared";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import {
  moderationLog,
  type NotificationType,
  notificationSettings,
  notifications,
  posts,
  priceDrops,
  savedSearches,
  user,
} from "../db/schema";
import { cursorTime, decodeCursor, encodeCursor } from "../lists/cursor";
import { keysetPage } from "../lists/pages";
import { userSummaryColumns } from "../lists/user-summary";
import { STANDING_PATH } from "../moderation/rules.shared";
import { notificationContentShown, visibilityNow } from "../moderation/visibility";
import { type EmailPreferences, readEmailPreferences } from "./email";
import { priceDropNoticeColumns } from "./price-drop-notice";
import { searchMatchNoticeColumns } from "./search-match-notice";
import {
  actorsPhrase,
  DATA_EXPORT_NOTICE,
  DATA_PAGE_PATH,
  displayName,
  moderationNoticeText,
  noticeLine,
  notificationHref,
  type PriceDropNotice,
  searchMatchHref,
} from "./texts";

/** spec 2 §9: notifications 15 a page. */
export const NOTIFICATIONS_PAGE_SIZE = 15;

/** The notices about the student's own account: their words and where they lead, no one named. */
const OWN_NOTICES: Partial<Record<NotificationType, { text: string; href: string }>> = {
  "data export": { text: DATA_EXPORT_NOTICE, href: DATA_PAGE_PATH },
  badge: { text: BADGE_MESSAGES.reminderNotice, href: BADGE_RENEWAL_PATH },
};

/** Kinds several people do to one post, shown as one line ('Ana S. and 4 others saved your post'). */
const GROUPED: ReadonlySet<NotificationType> = new Set(["like", "comment", "post interaction"]);

/** The read queries of this file, built but not run, for EXPLAIN (tests, bench). */
export const notificationQueries = {
  /**
   * spec 2 §7: to_user, createdAt descending; notifications_user_idx. Decision 0546: whether the
   * post or comment it is about is one the user may see (its line links nowhere otherwise).
   */
  page(
    db: Queryable,
    p: { userId: string; key: { time: string; id: string } | null; size: number; now: string },
  ) {
    const query = db
      .select({
        cursorTime: cursorTime(notifications.createdAt),
        id: notifications.id,
        type: notifications.type,
        event: notifications.event,
        dealId: notifications.dealId,
        postId: notifications.postId,
        commentId: notifications.commentId,
        chatId: notifications.chatId,
        read: notifications.read,
        createdAt: notifications.createdAt,
        actor: userSummaryColumns(user),
        // Decision 0543: a moderation notice's words come from its log row (by primary key).
        moderation: {
          action: moderationLog.action,
          targetKind: moderationLog.targetKind,
          publicReason: moderationLog.publicReason,
          suspendedUntil: sql<string | null>`${moderationLog.details}->>'suspendedUntil'`,
        },
        contentShown: notificationContentShown(notifications, p.now),
        // Decision 0621: a search match names its saved search and counts the listings it tells of.
        searchMatch: searchMatchNoticeColumns,
        // Decision 0640: a price drop's words come from its row (by primary key) and the listing.
        priceDrop: priceDropNoticeColumns,
      })
      .from(notifications)
      .innerJoin(user, eq(user.id, notifications.actorId))
      .leftJoin(moderationLog, eq(moderationLog.id, notifications.moderationLogId))
      .leftJoin(savedSearches, eq(savedSearches.id, notifications.savedSearchId))
      .leftJoin(priceDrops, eq(priceDrops.id, notifications.priceDropId))
      .leftJoin(posts, eq(posts.id, priceDrops.postId))
      .$dynamic();
    return keysetPage(
      query,
      { time: notifications.createdAt, id: notifications.id, idKind: "uuid" },
      { where: [eq(notifications.userId, p.userId)], key: p.key, limit: p.size + 1 },
    );
  },
  /** spec 2 §7 unread count (to_user, read false) since the list was last opened; notifications_unread_idx. */
  unread(db: Queryable, userId: string) {
    return db
      .select({ count: sql<number>`count(*)::int` })
      .from(notifications)
      .where(unreadNotificationsOf(userId));
  },
};

/** The rows the unread count counts; the shell's badges read them beside others (app/lib/badges.server.ts). */
export function unreadNotificationsOf(userId: string | SQLWrapper): SQL | undefined {
  return and(
    eq(notifications.userId, userId),
    eq(notifications.read, false),
    sql`${notifications.createdAt} > coalesce((select ${notificationSettings.seenAt} from ${notificationSettings} where ${notificationSettings.userId} = ${userId}), '-infinity'::timestamptz)`,
  );
}

export interface NotificationActor {
  id: string;
  username: string;
  firstName: string;
  lastName: string;
  name: string;
  img: string | null;
}

/** One line of /notifications: who (with avatar), what, when, where it leads. */
export interface NotificationItem {
  id: string;
  type: NotificationType;
  /** The newest actor first; a grouped line has more. */
  actors: NotificationActor[];
  /** People beyond the first on a grouped line. */
  others: number;
  text: string;
  href: string;
  createdAt: string;
  /** Unread when listed (highlighted); it is read from now on (spec 2 §4). */
  unread: boolean;
}

export interface NotificationsPage {
  items: NotificationItem[];
  nextCursor: string | null;
}

/**
 * spec 2 §2/§4/§7 '/notifications': the viewer's notifications, newest first, 15 a page by
 * keyset. Unread ones come back marked `unread` (highlighted) and are read from then on.
 * Decision 0250: on a page, the likes (and comments) of many people on one post are one line.
 * A tampered cursor is refused (PostError invalid-input) rather than read as the first page.
 */
export async function listNotifications(
  ctx: AppContext,
  viewer: Viewer,
  input: { cursor?: string | null } = {},
): Promise<NotificationsPage> {
  const key = input.cursor ? decodeCursor(input.cursor, "uuid") : null;
  const size = NOTIFICATIONS_PAGE_SIZE;
  const rows = await notificationQueries.page(ctx.db, {
    userId: viewer.id,
    key,
    size,
    now: visibilityNow(ctx.clock.now()),
  });
  const kept = rows.slice(0, size);
  const last = kept[kept.length - 1];
  const nextCursor = rows.length > size && last ? encodeCursor({ time: last.cursorTime, id: last.id }) : null;

  const unreadIds = kept.filter((row) => !row.read).map((row) => row.id);
  if (unreadIds.length > 0) {
    // spec 2 §4: 'marked read once listed'.
    await ctx.db.update(notifications).set({ read: true }).where(inArray(notifications.id, unreadIds));
  }

  const items: NotificationItem[] = [];
  const groups = new Map<string, NotificationItem>();
  // A trade notice's words depend on its event (decision 0600); trade notices are never grouped.
  const events = new Map<string, string | null>();
  const drops = new Map<string, PriceDropNotice | null>();
  for (const row of kept) {
    // Decision 0543: a moderation notice names no one (never the moderator) and leads to the standing page.
    if (row.type === "moderation") {
      const notice = row.moderation;
      items.push({
        id: row.id,
        type: row.type,
        actors: [],
        others: 0,
        text: notice?.action
          ? moderationNoticeText({
              action: notice.action,
              targetKind: notice.targetKind ?? "post",
              publicReason: notice.publicReason ?? null,
              suspendedUntil: notice.suspendedUntil ?? null,
            })
          : "",
        href: STANDING_PATH,
        createdAt: row.createdAt.toISOString(),
        unread: !row.read,
      });
      continue;
    }
    // Decision 0570: the student's own archive (the link itself is only in the e-mail); decision
    // 0681: the badge's reminder, leading to its renewal. Neither names anyone.
    const own = OWN_NOTICES[row.type];
    if (own) {
      items.push({
        id: row.id,
        type: row.type,
        actors: [],
        others: 0,
        text: own.text,
        href: own.href,
        createdAt: row.createdAt.toISOString(),
        unread: !row.read,
      });
      continue;
    }
    const { id, username, firstName, lastName, img } = row.actor;
    // Decision 0621: 'New match for "desk lamp"', leading to the listing (several: the search).
    if (row.type === "search match" && row.searchMatch?.name) {
      items.push({
        id: row.id,
        type: row.type,
        actors: [{ id, username, firstName, lastName, name: displayName(row.actor), img }],
        others: 0,
        text: noticeLine(row, ""),
        href: searchMatchHref(
          row.searchMatch,
          notificationHref(row.contentShown ? row : { postId: null, chatId: null }),
        ),
        createdAt: row.createdAt.toISOString(),
        unread: !row.read,
      });
      continue;
    }
    const actor: NotificationActor = { id, username, firstName, lastName, name: displayName(row.actor), img };
    const groupKey = GROUPED.has(row.type) && row.postId ? `${row.type}:${row.postId}` : null;
    const group = groupKey ? groups.get(groupKey) : undefined;
    if (group) {
      if (!group.actors.some((known) => known.id === actor.id)) group.actors.push(actor);
      group.unread ||= !row.read;
      continue;
    }
    const item: NotificationItem = {
      id: row.id,
      type: row.type,
      actors: [actor],
      others: 0,
      text: "",
      // Decision 0546: a line about content the viewer may not see leads to the list itself.
      href: notificationHref(row.contentShown ? row : { postId: null, chatId: row.chatId }),
      createdAt: row.createdAt.toISOString(),
      unread: !row.read,
    };
    items.push(item);
    events.set(item.id, row.event);
    drops.set(item.id, row.priceDrop);
    if (groupKey) groups.set(groupKey, item);
  }
  for (const item of items) {
    if (item.type === "moderation" || item.type in OWN_NOTICES || item.text) continue;
    item.others = item.actors.length - 1;
    const [first, second] = item.actors;
    item.text = noticeLine(
      { type: item.type, event: events.get(item.id), priceDrop: drops.get(item.id) },
      actorsPhrase(first?.name ?? "Someone", item.others, second?.name),
    );
  }
  return { items, nextCursor };
}

/**
 * spec 2 §4 'The unread count resets when the notifications page opens': the badge counts what
 * came after this moment. Moved only when something unread came since the last opening: the
 * count is the same either way, and a page opened with nothing new (most openings) commits no
 * write, so it waits on no log flush.
 */
export async function markNotificationsSeen(ctx: AppContext, viewer: Viewer): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db
    .insert(notificationSettings)
    .values({ userId: viewer.id, seenAt: now })
    .onConflictDoUpdate({
      target: notificationSettings.userId,
      set: { seenAt: now },
      setWhere: sql`${notificationSettings.seenAt} is null or exists (
        select 1 from ${notifications}
        where ${notifications.userId} = ${viewer.id} and ${notifications.read} = false
          and ${notifications.createdAt} > ${notificationSettings.seenAt})`,
    });
}

/** The spec 2 §3 types a chat's own events notify; opening or answering the chat reads them (decision 0455). */
const CHAT_NOTIFICATION_TYPES = [
  "message",
  "message like",
  "new chat",
] as const satisfies readonly NotificationType[];

/**
 * Decision 0455 'one message, cleared once': a message raises both the chat's unread
 * state and a notification; whoever reads the chat has read its notifications too, so the two
 * badges never ask to be cleared twice. Runs in the caller's transaction; the user's unread rows
 * are few (notifications_unread_idx). Returns how many were marked read.
 */
export async function markChatNotificationsRead(
  tx: Queryable,
  userId: string,
  chatId: string,
): Promise<number> {
  const marked = await tx
    .update(notifications)
    .set({ read: true })
    .where(
      and(
        eq(notifications.userId, userId),
        eq(notifications.read, false),
        eq(notifications.chatId, chatId),
        inArray(notifications.type, CHAT_NOTIFICATION_TYPES),
      ),
    )
    .returning({ id: notifications.id });
  return marked.length;
}

/** spec 1 §2 badge, spec 2 §7 unread count: unread notifications since the list was last opened. */
export async function countUnreadNotifications(ctx: AppContext, viewer: Viewer): Promise<number> {
  const [row] = await notificationQueries.unread(ctx.db, viewer.id);
  return row?.count ?? 0;
}

/** The e-mail settings page (decision 0251). */
export async function getEmailPreferences(ctx: AppContext, viewer: Viewer): Promise<EmailPreferences> {
  const preferences = await readEmailPreferences(ctx.db, viewer.id);
  if (!preferences) return { enabled: true, comments: true, saves: true, messages: true, priceDrops: true };
  const { email: _email, campusId: _campus, ...rest } = preferences;
  return rest;
}

/**
 * Saves the settings page: spec 1 §3 email_notifications on the user row, the kinds beside it.
 * A pending e-mail is re-checked when sent (decision 0251), so turning off stops it.
 */
export async function updateEmailPreferences(
  ctx: AppContext,
  viewer: Viewer,
  input: EmailPreferences,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await tx.update(user).set({ emailNotifications: input.enabled }).where(eq(user.id, viewer.id));
    const kinds = {
      emailComments: input.comments,
      emailSaves: input.saves,
      emailMessages: input.messages,
      emailPriceDrops: input.priceDrops,
    };
    await tx
      .insert(notificationSettings)
      .values({ userId: viewer.id, ...kinds })
      .onConflictDoUpdate({ target: notificationSettings.userId, set: kinds });
  });
}
