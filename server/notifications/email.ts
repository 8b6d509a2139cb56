import { createHmac, timingSafeEqual } from "node:crypto";
import { and, desc, eq, inArray, isNull, lte, type SQL, sql } from "drizzle-orm";
import { createElement } from "react";
import { campusOrigin } from "../campuses/campuses";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import {
  type NotificationType,
  notificationSettings,
  notifications,
  posts,
  priceDrops,
  savedSearches,
  user,
} from "../db/schema";
import type { ComposedMail, OutboxRow } from "../mail/outbox";
import { renderMail } from "../mail/render";
import { NotificationsEmail } from "../mail/templates/notifications";
import { notificationContentShown, visibilityNow } from "../moderation/visibility";
import { priceDropNoticeColumns } from "./price-drop-notice";
import { searchMatchNoticeColumns } from "./search-match-notice";
import {
  actorsPhrase,
  displayName,
  type EmailKind,
  emailKindOf,
  noticeLine,
  notificationHref,
  searchMatchHref,
} from "./texts";

/** The outbox kind of notification e-mails (decision 0251): composed when sent. */
export const NOTIFICATION_MAIL_KIND = "notification";
/** Lines one e-mail lists; the rest are counted ('And 3 more.'). */
const MAIL_LINES = 10;
/** Notifications one e-mail reads at most (bounds the work of one send). */
const MAIL_READ_LIMIT = 50;

export interface EmailPreferences {
  /** spec 1 §3 email_notifications: the master switch. */
  enabled: boolean;
  comments: boolean;
  saves: boolean;
  messages: boolean;
  /** Decision 0640: price drops of saved listings. */
  priceDrops: boolean;
}

/** A user's e-mail preferences and address; null when there is no such user. */
export async function readEmailPreferences(
  db: Queryable,
  userId: string,
): Promise<(EmailPreferences & { email: string; campusId: string }) | null> {
  const [row] = await db
    .select({
      email: user.email,
      campusId: user.campusId,
      enabled: user.emailNotifications,
      comments: notificationSettings.emailComments,
      saves: notificationSettings.emailSaves,
      messages: notificationSettings.emailMessages,
      priceDrops: notificationSettings.emailPriceDrops,
    })
    .from(user)
    .leftJoin(notificationSettings, eq(notificationSettings.userId, user.id))
    .where(eq(user.id, userId))
    .limit(1);
  if (!row) return null;
  return {
    email: row.email,
    campusId: row.campusId,
    enabled: row.enabled,
    comments: row.comments ?? true,
    saves: row.saves ?? true,
    messages: row.messages ?? true,
    priceDrops: row.priceDrops ?? true,
  };
}

function wants(preferences: EmailPreferences, kind: EmailKind): boolean {
  return preferences.enabled && preferences[kind];
}

/** The notification_settings column of each e-mail kind (decision 0251). */
const PREFERENCE_COLUMN: Readonly<Record<EmailKind, string>> = {
  comments: "email_comments",
  saves: "email_saves",
  messages: "email_messages",
  priceDrops: "email_price_drops",
};

/**
 * Decision 0251: makes sure one notification e-mail is pending for each recipient in
 * `recipients` (an earlier CTE of the statement, with a user_id column) who wants e-mail for
 * this kind, due NOTIFICATION_EMAIL_DELAY from now; a pending one absorbs this notification (the
 * unique index on pending rows), so a burst becomes one e-mail. The preference is read in the
 * same statement (decision 0330: notify() is one round trip).
 */
export function notificationEmailInsert(
  ctx: AppContext,
  recipients: string,
  type: NotificationType,
  now: Date,
): SQL {
  const wanted = sql.identifier(PREFERENCE_COLUMN[emailKindOf(type)]);
  const due = new Date(now.getTime() + ctx.config.notificationEmailDelayMs);
  // Written when the mail is sent, from what is still true then: subject and bodies stay empty.
  return sql`insert into mail_outbox (campus_id, kind, "to", subject, html, text, next_attempt_at, created_at, user_id)
    select u.campus_id, ${NOTIFICATION_MAIL_KIND}, lower(u.email), '', '', '',
      ${due.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz, u.id
    from ${sql.identifier(recipients)} r
    join "user" u on u.id = r.user_id
    left join notification_settings s on s.user_id = u.id
    where u.email_notifications and coalesce(s.${wanted}, true)
    on conflict do nothing`;
}

/** notificationEmailInsert for one user, as its own statement. */
export async function queueNotificationEmail(
  db: Queryable,
  ctx: AppContext,
  userId: string,
  type: NotificationType,
  now: Date,
): Promise<void> {
  await db.execute(
    sql`with recipient as (select ${userId}::text as user_id) ${notificationEmailInsert(ctx, "recipient", type, now)}`,
  );
}

/**
 * What an unsubscribe link turns off (decision 0461): part of the signed text, so a
 * link made for one kind of mail never works for another.
 */
export type UnsubscribeKind = "notifications";

/** How long an unsubscribe link works (decision 0461); the e-mail's settings link works always. */
export const UNSUBSCRIBE_LINK_DAYS = 90;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Decision 0461: an HMAC with the unsubscribe secret (UNSUBSCRIBE_SECRET, rotated to void every
 * link) of the purpose, the kind, the user, the account's e-mail address (a link stops working
 * when the address changes) and the day it was made (links expire).
 */
function unsubscribeSignature(
  ctx: AppContext,
  kind: string,
  userId: string,
  email: string,
  issuedDay: string,
): string {
  return createHmac("sha256", ctx.config.unsubscribeSecret)
    .update(["unsubscribe", kind, userId, email.toLowerCase(), issuedDay].join("\u0000"))
    .digest("base64url");
}

/** `{userId}.{kind}.{day made, base 36}.{signature}`: the account's current address is signed, not shown. */
export function unsubscribeToken(
  ctx: AppContext,
  account: { id: string; email: string },
  kind: UnsubscribeKind,
): string {
  const issuedDay = Math.floor(ctx.clock.now().getTime() / DAY_MS).toString(36);
  return [
    account.id,
    kind,
    issuedDay,
    unsubscribeSignature(ctx, kind, account.id, account.email, issuedDay),
  ].join(".");
}

/**
 * The user a token of `kind` was made for, or null when this app did not make it for that kind,
 * the account's address changed since, the secret was rotated, it is older than
 * UNSUBSCRIBE_LINK_DAYS, or it is not a token at all (old links included: a clear page, no error).
 */
export async function verifyUnsubscribeToken(
  ctx: AppContext,
  token: string,
  kind: UnsubscribeKind,
): Promise<string | null> {
  if (token.length > 300) return null;
  const parts = token.split(".");
  if (parts.length !== 4) return null;
  const [userId = "", tokenKind, issuedDay = "", signature = ""] = parts;
  if (tokenKind !== kind || !/^[0-9a-z]{1,8}$/.test(issuedDay) || !/^[A-Za-z0-9_-]{1,100}$/.test(userId))
    return null;
  const age = Math.floor(ctx.clock.now().getTime() / DAY_MS) - Number.parseInt(issuedDay, 36);
  if (age < 0 || age > UNSUBSCRIBE_LINK_DAYS) return null;
  const [account] = await ctx.db.select({ email: user.email }).from(user).where(eq(user.id, userId)).limit(1);
  if (!account) return null;
  const given = Buffer.from(signature);
  const expected = Buffer.from(unsubscribeSignature(ctx, kind, userId, account.email, issuedDay));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return userId;
}

/**
 * Decision 0251, RFC 8058: the one-click unsubscribe (and the confirm page's button). Turns
 * spec 1 §3 email_notifications off; false when the token is not valid (decision 0461) or its
 * user is gone.
 */
export async function unsubscribeFromNotificationEmails(ctx: AppContext, token: string): Promise<boolean> {
  const userId = await verifyUnsubscribeToken(ctx, token, "notifications");
  if (!userId) return false;
  const updated = await ctx.db
    .update(user)
    .set({ emailNotifications: false })
    .where(eq(user.id, userId))
    .returning({ id: user.id });
  return updated.length > 0;
}

/** The unsubscribe page's address for a user, from configuration (decision 0110), never a request. */
export function unsubscribeUrl(
  ctx: AppContext,
  campusId: string,
  account: { id: string; email: string },
): string {
  const origin = campusOrigin(campusId, null, ctx.config);
  return `${origin}/notifications/unsubscribe?token=${encodeURIComponent(unsubscribeToken(ctx, account, "notifications"))}`;
}

/**
 * Decision 0251, the outbox's composer for NOTIFICATION_MAIL_KIND: when the delay is over,
 * re-reads what is still true — the preference (master switch and kind), and the
 * notifications not read, not e-mailed and not deleted with their content (the rows cascade
 * with their post or comment) — and writes one e-mail of them all, or drops it when none is left.
 */
export async function composeNotificationMail(ctx: AppContext, row: OutboxRow): Promise<ComposedMail | null> {
  const userId = row.userId;
  if (!userId) return null;
  const preferences = await readEmailPreferences(ctx.db, userId);
  if (!preferences) return null;
  const now = ctx.clock.now();
  const actor = {
    firstName: user.firstName,
    lastName: user.lastName,
  };
  const pending = await ctx.db
    .select({
      id: notifications.id,
      type: notifications.type,
      event: notifications.event,
      dealId: notifications.dealId,
      postId: notifications.postId,
      chatId: notifications.chatId,
      campusId: notifications.campusId,
      contentShown: notificationContentShown(notifications, visibilityNow(now)),
      priceDrop: priceDropNoticeColumns,
      // Decision 0621: a search match is named after its search, as in the list.
      searchMatch: searchMatchNoticeColumns,
      ...actor,
    })
    .from(notifications)
    .innerJoin(user, eq(user.id, notifications.actorId))
    .leftJoin(savedSearches, eq(savedSearches.id, notifications.savedSearchId))
    .leftJoin(priceDrops, eq(priceDrops.id, notifications.priceDropId))
    .leftJoin(posts, eq(posts.id, priceDrops.postId))
    .where(
      and(
        eq(notifications.userId, userId),
        isNull(notifications.emailedAt),
        eq(notifications.read, false),
        lte(notifications.createdAt, now),
      ),
    )
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(MAIL_READ_LIMIT);
  // Decision 0546: what is about hidden, removed or a suspended author's content is never mailed.
  const mailable = (item: (typeof pending)[number]) =>
    item.contentShown && wants(preferences, emailKindOf(item.type));
  const wanted = pending.filter(mailable);
  const unwanted = pending.filter((item) => !mailable(item));
  // Turned off for this kind (or withheld): never mailed later, should the preference come back on.
  if (unwanted.length > 0)
    await markEmailed(
      ctx.db,
      unwanted.map((item) => item.id),
      now,
    );
  if (wanted.length === 0) return null;

  const campus = ctx.campuses.get(row.campusId);
  const campusName = campus?.name ?? "Campus";
  const origin = campusOrigin(row.campusId, null, ctx.config);
  const lines = wanted.slice(0, MAIL_LINES).map((item) => ({
    text: noticeLine(item, actorsPhrase(displayName(item), 0)),
    url: `${origin}${item.type === "search match" && item.searchMatch ? searchMatchHref(item.searchMatch, notificationHref(item)) : notificationHref(item)}`,
  }));
  const first = lines[0];
  const heading = wanted.length === 1 && first ? first.text : `You have ${wanted.length} new notifications`;
  const unsubscribe = unsubscribeUrl(ctx, row.campusId, { id: userId, email: preferences.email });
  const { html, text } = await renderMail(
    createElement(NotificationsEmail, {
      campusName,
      heading,
      lines,
      more: wanted.length - lines.length,
      listUrl: `${origin}/notifications`,
      settingsUrl: `${origin}/settings/notifications`,
      unsubscribeUrl: unsubscribe,
    }),
  );
  const ids = wanted.map((item) => item.id);
  return {
    subject: heading,
    html,
    text,
    // RFC 8058: mail clients POST 'List-Unsubscribe=One-Click' to this address.
    headers: {
      "List-Unsubscribe": `<${unsubscribe}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
    afterSend: async () => {
      const sentAt = ctx.clock.now();
      await markEmailed(ctx.db, ids, sentAt);
      // A notification that came while this one was being written (its pending row was this
      // one, now sent) gets an e-mail of its own after the delay.
      const [left] = await ctx.db
        .select({ type: notifications.type })
        .from(notifications)
        .where(
          and(
            eq(notifications.userId, userId),
            isNull(notifications.emailedAt),
            eq(notifications.read, false),
          ),
        )
        .limit(1);
      if (left) await queueNotificationEmail(ctx.db, ctx, userId, left.type, sentAt);
    },
  };
}

async function markEmailed(db: Queryable, ids: string[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await db.update(notifications).set({ emailedAt: at }).where(inArray(notifications.id, ids));
}
