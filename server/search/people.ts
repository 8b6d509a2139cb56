import { and, eq, isNull, ne, type SQL, sql } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import { noBlockBetween } from "../chats/blocks";
import type { AppContext } from "../context";
import { user } from "../db/schema";
import type { Page } from "../lists/pages";
import { toUserSummary, type UserSummary } from "../lists/user-summary";
import { requireReadableCampus } from "../posts/access";
import { PostError } from "../posts/errors";
import { POST_MESSAGES } from "../posts/schemas";
import { escapeLike } from "./history";
import { SEARCH_LIMITS } from "./limits";
import { normaliseSearchText } from "./text.shared";

/**
 * People search (spec 2 §7 'users index', spec 1 §7 'People search', §5 new-message search;
 * decision 0190): the campus's people whose name or username holds the typed text,
 * or resembles it by trigrams (pg_trgm word similarity), best match first. Served by
 * user_people_search_idx (GIN on campus and the lower-case 'first last username').
 * The New Message modal of the messaging issue calls the same function.
 */

export type PersonHit = UserSummary;

export interface SearchPeopleInput {
  /** The campus of the request's host: only its people are found. */
  campusId: string;
  text: string;
  /** Hits per page, 1…50 (default 10, spec 2 §9 'search hits 10'). */
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string | null;
  /** Leave the viewer out (the New Message modal: nobody writes to themselves). */
  excludeViewer?: boolean;
}

/** The text people are matched on. Written exactly as the index's expression (schema/auth.ts). */
const PERSON_TEXT = sql`lower(${user.firstName} || ' ' || ${user.lastName} || ' ' || ${user.username})`;

const SCORE_PATTERN = /^\d(\.\d{1,6})?$/;

function decodePeopleCursor(cursor: string): { score: string; id: string } {
  const refuse = () => new PostError("invalid-input", POST_MESSAGES.badCursor);
  let value: unknown;
  try {
    value = cursor.length <= 200 ? JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) : null;
  } catch {
    throw refuse();
  }
  if (!Array.isArray(value) || value.length !== 2) throw refuse();
  const [score, id] = value as unknown[];
  if (typeof score !== "string" || !SCORE_PATTERN.test(score)) throw refuse();
  if (typeof id !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw refuse();
  return { score, id };
}

/**
 * The campus's people matching `text` (2 characters or more, spec 1 §7: shorter finds nobody),
 * banned accounts left out; a page of `limit`, best match first, then by id. A visitor on a
 * private campus gets PostError 'private-campus'.
 */
export async function searchPeople(
  ctx: AppContext,
  viewer: Viewer | null,
  input: SearchPeopleInput,
): Promise<Page<PersonHit>> {
  const campus = requireReadableCampus(ctx, viewer, input.campusId);
  const text = normaliseSearchText(input.text).toLowerCase().slice(0, 50);
  if ([...text].length < SEARCH_LIMITS.peopleMinChars) return { items: [], nextCursor: null };
  const size = Math.min(50, Math.max(1, Math.trunc(input.limit ?? SEARCH_LIMITS.hits)));
  const key = input.cursor ? decodePeopleCursor(input.cursor) : null;

  // A name holding the text counts as a full match; otherwise the trigram word similarity.
  const contains = sql`${PERSON_TEXT} like ${`%${escapeLike(text)}%`}`;
  const scoreValue = sql`round((case when ${contains} then 1 else word_similarity(${text}, ${PERSON_TEXT}) end)::numeric, 6)`;
  const score = sql<string>`${scoreValue}::text`;
  const conditions: (SQL | undefined)[] = [
    eq(user.campusId, campus.id),
    eq(user.banned, false),
    // Decision 0571: a deleted account is found by nobody.
    isNull(user.deletedAt),
    sql`(${contains} or ${text} <% ${PERSON_TEXT})`,
    input.excludeViewer && viewer ? ne(user.id, viewer.id) : undefined,
    // Decision 0462: neither of two people with a block between them finds the other.
    viewer ? noBlockBetween(viewer.id, user.id) : undefined,
    key ? sql`(${scoreValue}, ${user.id}) < (${key.score}::numeric, ${key.id})` : undefined,
  ];
  const rows = await ctx.db
    .select({
      id: user.id,
      username: user.username,
      firstName: user.firstName,
      lastName: user.lastName,
      img: user.img,
      schoolVerified: user.schoolVerified,
      schoolVerifiedAt: user.schoolVerifiedAt,
      gradYear: user.gradYear,
      score,
    })
    .from(user)
    .where(and(...conditions))
    .orderBy(sql`${scoreValue} desc`, sql`${user.id} desc`)
    .limit(size + 1);
  const kept = rows.slice(0, size);
  const now = ctx.clock.now();
  const last = kept[kept.length - 1];
  return {
    items: kept.map(({ score: _score, ...person }) => toUserSummary(person, now)),
    nextCursor:
      rows.length > size && last
        ? Buffer.from(JSON.stringify([last.score, last.id]), "utf8").toString("base64url")
        : null,
  };
}
