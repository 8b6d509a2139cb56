import { and, asc, eq, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { campuses, user } from "../db/schema";
import campusList from "./campuses.json";

export { isSchoolEmailDomain } from "./names";

export type Campus = typeof campuses.$inferSelect;

interface CampusSource {
  slug: string;
  code: string;
  name: string;
  school: string | null;
  city: string | null;
  state: string | null;
  country: string;
  domains: string[];
  generic?: boolean;
  default?: boolean;
}

export const GENERIC_CAMPUS_ID = "www";
export const DEFAULT_CAMPUS_ID = "ou";

/** The 15 communities (our copy of shared/campuses.json), as rows. */
export const campusSeed: (typeof campuses.$inferInsert)[] = (campusList as CampusSource[]).map((c) => ({
  id: c.slug,
  code: c.code,
  name: c.name,
  school: c.school,
  city: c.city,
  state: c.state,
  country: c.country,
  domains: c.domains,
  generic: c.generic ?? false,
  isDefault: c.default ?? false,
  logo: `/logos/${c.slug}.svg`,
}));

/** Inserts missing campuses and refreshes their public facts; operator settings (privacy, page size) stay. */
export async function seedCampuses(db: Queryable): Promise<void> {
  await db
    .insert(campuses)
    .values(campusSeed)
    .onConflictDoUpdate({
      target: campuses.id,
      set: {
        code: sql`excluded.code`,
        name: sql`excluded.name`,
        school: sql`excluded.school`,
        city: sql`excluded.city`,
        state: sql`excluded.state`,
        country: sql`excluded.country`,
        domains: sql`excluded.domains`,
        generic: sql`excluded.generic`,
        isDefault: sql`excluded.is_default`,
      },
    });
}

export async function listCampuses(db: Queryable): Promise<Campus[]> {
  return db.select().from(campuses).orderBy(asc(campuses.name));
}

export async function getCampus(db: Queryable, id: string): Promise<Campus | null> {
  const [row] = await db.select().from(campuses).where(eq(campuses.id, id)).limit(1);
  return row ?? null;
}

/**
 * Which campus a host name serves (CONTRACT.md 'Campuses and hosts'):
 * a configured production host, then `{slug}.localhost`, else the default campus.
 */
export function campusIdForHost(
  hostHeader: string | undefined,
  productionHosts: Record<string, string>,
): string {
  const host = (hostHeader ?? "").trim().toLowerCase().replace(/:\d+$/, "").replace(/\.$/, "");
  for (const [id, productionHost] of Object.entries(productionHosts)) {
    if (host === productionHost || host === `www.${productionHost}`) return id;
  }
  const match = /^([a-z0-9-]+)\.localhost$/.exec(host);
  if (match?.[1] && campusSeed.some((c) => c.id === match[1])) return match[1];
  return DEFAULT_CAMPUS_ID;
}

/** The origin users of a campus reach it on, used for links in mail and 'View Your Campus'. */
export function campusOrigin(
  campusId: string,
  options: { productionHosts: Record<string, string>; requestOrigin: URL | null; publicUrl: string | null },
): string {
  const productionHost = options.productionHosts[campusId];
  if (productionHost) return `https://${productionHost}`;
  const base = options.requestOrigin ?? new URL(options.publicUrl ?? "http://localhost:3000");
  const port = base.port ? `:${base.port}` : "";
  if (
    base.hostname === "localhost" ||
    base.hostname.endsWith(".localhost") ||
    base.hostname === "127.0.0.1"
  ) {
    return `${base.protocol}//${campusId}.localhost${port}`;
  }
  return base.origin;
}

/** 'About This Group' member count: school-verified users of the campus (spec 1 §2). */
export async function countCampusMembers(db: Queryable, campusId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(user)
    .where(and(eq(user.campusId, campusId), eq(user.schoolVerified, true)));
  return row?.count ?? 0;
}
