import { type SQL, sql } from "drizzle-orm";
import { createElement } from "react";
import { campusOrigin } from "../campuses/campuses";
import type { AppContext } from "../context";
import type { Tx } from "../db/client";
import { enqueueMails, type MailToQueue } from "../mail/outbox";
import { renderMail } from "../mail/render";
import {
  type DigestMailListing,
  type DigestMailSearch,
  SavedSearchDigestEmail,
} from "../mail/templates/saved-search-digest";
import { shownToWithoutAuthor, visibilityNow } from "../moderation/visibility";
import { type ListingStatus, priceLine, STATUS_LABELS } from "../posts/listing.shared";
import { campusTimeZone, instantToWallTime, wallTimeToInstant } from "../trade/meetup-rules.shared";
import { savedSearchUnsubscribeToken } from "./saved-searches";
import { rowsOf } from "./terms";

/**
 * Decision 0630: the daily e-mail of saved searches set to Daily. Once a campus's clock has passed
 * 08:00, each student with daily hits made before that 08:00 and not yet e-mailed gets one e-mail:
 * every listing once whatever number of their searches found it, re-checked now as /search would
 * show it to them, at most DIGEST_LISTED and '+ N more'. An empty digest is not sent, but its hits
 * are marked all the same.
 *
 * At most one a day without a column of its own: hits are taken only up to the last 08:00, and a
 * student whose digest already went since that 08:00 (the outbox row, by address and kind) is left
 * for tomorrow, so a hit committed late still waits for the next day.
 *
 * Bounded and resumable: a batch is STUDENTS_PER_BATCH students in one transaction that marks
 * their hits (emailed_at) and writes their e-mails to the outbox; the marked hits are the ones
 * read, so a run killed anywhere leaves whole batches behind it and the next run starts with the
 * students still due. No cursor is kept: a student done is no longer due.
 */

export const SAVED_SEARCH_DIGEST_MAIL_KIND = "saved-search-digest";
export const SAVED_SEARCH_DIGEST_JOB = "saved-search-digest";
/** The campus's local hour the digest goes out at (docs/product/saved-searches.md). */
export const DIGEST_HOUR = "08:00";
/** Listings one e-mail shows; the rest are counted ('+ 3 more'). */
export const DIGEST_LISTED = 10;
/** Students one transaction handles. */
export const STUDENTS_PER_BATCH = 100;
/** Batches one run does before it yields (the registry runs it again at once). */
const BATCHES_PER_RUN = 20;
const TITLE_CHARACTERS = 80;

/** The last DIGEST_HOUR in `timeZone` at or before `now`. */
export function lastDigestTime(now: Date, timeZone: string): Date {
  const today = instantToWallTime(now, timeZone).slice(0, 10);
  const at = wallTimeToInstant(`${today}T${DIGEST_HOUR}`, timeZone);
  if (at && at <= now) return at;
  const [y = 1970, m = 1, d = 1] = today.split("-").map(Number);
  const yesterday = new Date(Date.UTC(y, m - 1, d - 1)).toISOString().slice(0, 10);
  // 08:00 is never a time the clocks skip in the zones decision 0614 uses.
  return wallTimeToInstant(`${yesterday}T${DIGEST_HOUR}`, timeZone) ?? new Date(now.getTime() - 86_400_000);
}

/** Each campus's last 08:00 (decision 0614's zone), as a relation `cutoff(campus_id, at)`. */
function cutoffRelation(ctx: AppContext, now: Date): SQL {
  const pairs = ctx.campuses.all().map((campus) => ({
    id: campus.id,
    at: lastDigestTime(now, campusTimeZone(campus.state)).toISOString(),
  }));
  return sql`cutoff as (
    select c->>'id' as campus_id, (c->>'at')::timestamptz as at
    from json_array_elements(${JSON.stringify(pairs)}::json) c)`;
}

interface DueStudent {
  userId: string;
  email: string;
  campusId: string;
  wantsMail: boolean;
}

/** The next students with daily hits due, in id order; never one whose digest went since the cutoff. */
async function dueStudents(tx: Tx, cutoff: SQL, limit: number): Promise<DueStudent[]> {
  return rowsOf<DueStudent>(
    await tx.execute(sql`
      with ${cutoff},
      due as (
        select h.user_id from saved_search_hits h
        join cutoff c on c.campus_id = h.campus_id
        join "user" u on u.id = h.user_id
        where h.emailed_at is null and h.created_at < c.at
          and not exists (
            select 1 from mail_outbox m
            where m."to" = lower(u.email) and m.kind = ${SAVED_SEARCH_DIGEST_MAIL_KIND} and m.created_at >= c.at)
        group by h.user_id
        order by h.user_id
        limit ${limit}
      )
      select u.id as "userId", lower(u.email) as email, u.campus_id as "campusId",
        u.email_notifications as "wantsMail"
      from due d join "user" u on u.id = d.user_id
      order by u.id`),
  );
}

interface HitRow {
  userId: string;
  postId: string;
  /** The student's Daily searches that found it, by name (none: all turned Instant or Off since). */
  searchIds: string[] | null;
  names: string[] | null;
  visible: boolean;
  createdAt: string;
  title: string;
  priceCents: number | null;
  priceTerms: "firm" | "offers" | null;
  status: ListingStatus;
  thumb: string | null;
}

/**
 * Marks the students' due hits as e-mailed and answers exactly those, one row per listing, each
 * re-checked as /search's condition would for the student (decision 0546 and 0462): available
 * (not sold or reserved), shown (not hidden or removed, its author not suspended), not their own,
 * no block either way, on their campus. A deleted listing's hits went with it (the cascade).
 */
async function markAndReadHits(tx: Tx, cutoff: SQL, userIds: string[], now: Date): Promise<HitRow[]> {
  return rowsOf<HitRow>(
    await tx.execute(sql`
      with ${cutoff},
      marked as (
        update saved_search_hits h set emailed_at = ${now.toISOString()}::timestamptz
        from cutoff c
        where c.campus_id = h.campus_id and h.user_id in (select json_array_elements_text(${JSON.stringify(userIds)}::json))
          and h.emailed_at is null and h.created_at < c.at
        returning h.user_id, h.post_id, h.saved_search_id
      )
      select m.user_id as "userId", m.post_id as "postId",
        array_agg(s.id order by s.name, s.id) filter (where s.cadence = 'daily') as "searchIds",
        array_agg(s.name order by s.name, s.id) filter (where s.cadence = 'daily') as names,
        (posts.parent_id is null and posts.listing_status = 'available' and posts.campus_id = u.campus_id
          and posts.author_id <> m.user_id
          and ${shownToWithoutAuthor(null, visibilityNow(now))}
          and not exists (select 1 from user_blocks b
            where (b.blocker_id = m.user_id and b.blocked_id = posts.author_id)
               or (b.blocker_id = posts.author_id and b.blocked_id = m.user_id))) as visible,
        posts.created_at::text as "createdAt",
        left(posts.text_plain, ${TITLE_CHARACTERS * 2}) as title,
        posts.price_cents as "priceCents", posts.price_terms as "priceTerms",
        posts.listing_status as status,
        case when posts.img_count > 0 then (
          select pm.thumb_path from post_media pm where pm.post_id = posts.id order by pm.img_order limit 1
        ) end as thumb
      from marked m
      join saved_searches s on s.id = m.saved_search_id
      join posts on posts.id = m.post_id
      join "user" u on u.id = m.user_id
      group by m.user_id, m.post_id, posts.id, u.id`),
  );
}

/** A listing's title in a mail: its text's first line, shortened. */
function titleOf(text: string): string {
  const line =
    text
      .split("\n")
      .find((part) => part.trim().length > 0)
      ?.trim() ?? "";
  const chars = [...line];
  if (chars.length === 0) return "Listing";
  return chars.length > TITLE_CHARACTERS ? `${chars.slice(0, TITLE_CHARACTERS - 1).join("")}…` : line;
}

/** The one-click page of a saved search, from configuration (decision 0110), never a request. */
export function savedSearchUnsubscribeUrl(ctx: AppContext, campusId: string, savedSearchId: string): string {
  const token = savedSearchUnsubscribeToken(ctx, savedSearchId);
  return `${campusOrigin(campusId, null, ctx.config)}/notifications/unsubscribe/search?token=${encodeURIComponent(token)}`;
}

/** One student's digest from their hit rows, or null when nothing is left to tell. */
export async function buildDigestMail(
  ctx: AppContext,
  student: DueStudent,
  rows: readonly HitRow[],
): Promise<MailToQueue | null> {
  const shown = rows
    .filter((row) => row.visible && (row.names?.length ?? 0) > 0)
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  if (shown.length === 0 || !student.wantsMail) return null;
  const origin = campusOrigin(student.campusId, null, ctx.config);
  const absolute = (url: string) => (url.startsWith("/") ? `${origin}${url}` : url);
  const listed = shown.slice(0, DIGEST_LISTED);
  const listings: DigestMailListing[] = listed.map((row) => ({
    url: `${origin}/post/${row.postId}`,
    title: titleOf(row.title),
    price: priceLine({ priceCents: row.priceCents, priceTerms: row.priceTerms }),
    status: STATUS_LABELS[row.status],
    photoUrl: row.thumb ? absolute(ctx.storage.url(row.thumb)) : null,
    matches: (row.names ?? []).join(", "),
  }));
  // Every search that found a listing in the mail, the one that found most first: its one-click
  // address is the List-Unsubscribe header's (decision 0630).
  const bySearch = new Map<string, { name: string; listings: number }>();
  for (const row of shown) {
    (row.searchIds ?? []).forEach((id, index) => {
      const found = bySearch.get(id) ?? { name: row.names?.[index] ?? "", listings: 0 };
      found.listings++;
      bySearch.set(id, found);
    });
  }
  const searches: (DigestMailSearch & { id: string })[] = [...bySearch.entries()]
    .sort(([, a], [, b]) => b.listings - a.listings || a.name.localeCompare(b.name))
    .map(([id, search]) => ({
      id,
      name: search.name,
      unsubscribeUrl: savedSearchUnsubscribeUrl(ctx, student.campusId, id),
    }));
  const heading =
    shown.length === 1
      ? "1 new listing for your saved searches"
      : `${shown.length} new listings for your saved searches`;
  const { html, text } = await renderMail(
    createElement(SavedSearchDigestEmail, {
      campusName: ctx.campuses.get(student.campusId)?.name ?? "Campus",
      heading,
      listings,
      more: shown.length - listed.length,
      moreUrl: `${origin}/settings/searches`,
      searches,
      manageUrl: `${origin}/settings/searches`,
    }),
  );
  const first = searches[0];
  return {
    campusId: student.campusId,
    kind: SAVED_SEARCH_DIGEST_MAIL_KIND,
    to: student.email,
    subject: heading,
    html,
    text,
    // RFC 8058: mail clients POST 'List-Unsubscribe=One-Click' to this address.
    ...(first
      ? {
          headers: {
            "List-Unsubscribe": `<${first.unsubscribeUrl}>`,
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
          },
        }
      : {}),
  };
}

/** One batch in one transaction: how many students it handled, and how many e-mails it queued. */
export async function sendDigestBatch(
  ctx: AppContext,
  limit = STUDENTS_PER_BATCH,
): Promise<{ students: number; mails: number }> {
  const now = ctx.clock.now();
  const cutoff = cutoffRelation(ctx, now);
  const result = await ctx.db.transaction(async (tx) => {
    const students = await dueStudents(tx, cutoff, limit);
    if (students.length === 0) return { students: 0, mails: 0 };
    const rows = await markAndReadHits(
      tx,
      cutoff,
      students.map((student) => student.userId),
      now,
    );
    const byStudent = new Map<string, HitRow[]>();
    for (const row of rows) byStudent.set(row.userId, [...(byStudent.get(row.userId) ?? []), row]);
    const mails: MailToQueue[] = [];
    for (const student of students) {
      const mail = await buildDigestMail(ctx, student, byStudent.get(student.userId) ?? []);
      if (mail) mails.push(mail);
    }
    await enqueueMails(tx, mails, now);
    return { students: students.length, mails: mails.length };
  });
  if (result.mails > 0) ctx.wakeMailWorker();
  return result;
}

/** Decision 0630: one run of the digest job; `more` when a full run left students due. */
export async function runSavedSearchDigest(
  ctx: AppContext,
  stopping: () => boolean = () => false,
): Promise<{ more: boolean }> {
  for (let batch = 0; batch < BATCHES_PER_RUN; batch++) {
    if (stopping()) return { more: false };
    const { students } = await sendDigestBatch(ctx);
    if (students < STUDENTS_PER_BATCH) return { more: false };
  }
  return { more: true };
}
