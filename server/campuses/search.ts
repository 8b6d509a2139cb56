import { and, asc, desc, eq, or, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Queryable } from "../db/client";
import { campuses } from "../db/schema";
import { normaliseSearchText } from "../search/text.shared";

/** One Find Your School hit (spec 1 §2): what a result row and the campus modal show. */
export interface CampusHit {
  id: string;
  code: string;
  name: string;
  school: string | null;
  city: string | null;
  state: string | null;
  country: string;
  logo: string | null;
}

/** The query of /search_schools: the text typed (`q`) and the campus chosen (`campus`, a campus id). */
export const FindSchoolQuerySchema = z.object({
  q: z
    .string()
    .optional()
    .transform((value) => normaliseSearchText(value)),
  campus: z
    .string()
    .trim()
    .toLowerCase()
    .max(40)
    .optional()
    .transform((value) => value || null)
    .catch(null),
});

/**
 * Below this trigram score a campus is no match, unless the text contains the
 * query outright (1- and 2-letter queries have too few trigrams to score well).
 * 0.5 keeps one-letter typos ('stanfrd' 0.63, 'harvrd' 0.57) and drops the
 * noise a short code gives every name ('ut' scores 0.33 against 'University').
 */
export const MATCH_THRESHOLD = 0.5;

const hitColumns = {
  id: campuses.id,
  code: campuses.code,
  name: campuses.name,
  school: campuses.school,
  city: campuses.city,
  state: campuses.state,
  country: campuses.country,
  logo: campuses.logo,
};

/**
 * Find Your School (spec 1 §2, spec 2 §2 'Search'): campuses whose short name,
 * school name, city or code match the text, best first, by pg_trgm's
 * word_similarity (the best-matching stretch of each field, so 'texas' finds
 * 'The University of Texas at Austin' fully). The generic instance is never a
 * hit. An empty text lists every campus by name, so the page can be browsed.
 */
export async function searchCampuses(db: Queryable, text: string, limit = 20): Promise<CampusHit[]> {
  const q = normaliseSearchText(text);
  const notGeneric = eq(campuses.generic, false);
  if (q === "") {
    return db.select(hitColumns).from(campuses).where(notGeneric).orderBy(asc(campuses.name)).limit(limit);
  }
  const fields: SQL[] = [
    sql`${campuses.name}`,
    sql`coalesce(${campuses.school}, '')`,
    sql`coalesce(${campuses.city}, '')`,
    sql`${campuses.code}`,
  ];
  const score = sql<number>`greatest(${sql.join(
    fields.map((field) => sql`word_similarity(${q}, ${field})`),
    sql`, `,
  )})`;
  const contains = or(...fields.map((field) => sql`strpos(lower(${field}), lower(${q})) > 0`));
  // A campus called exactly what was typed ('UT', 'TAMU') comes first.
  const exact = sql`(lower(${campuses.name}) = lower(${q}) or lower(${campuses.code}) = lower(${q}))`;
  return db
    .select(hitColumns)
    .from(campuses)
    .where(and(notGeneric, or(sql`${score} >= ${MATCH_THRESHOLD}`, contains)))
    .orderBy(desc(exact), desc(score), asc(campuses.name))
    .limit(limit);
}

/** A campus as a Find Your School hit; null for none or for the generic instance, which is no school. */
export function schoolHit(campus: (CampusHit & { generic: boolean }) | null): CampusHit | null {
  if (!campus || campus.generic) return null;
  const { id, code, name, school, city, state, country, logo } = campus;
  return { id, code, name, school, city, state, country, logo };
}
