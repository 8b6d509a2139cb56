import { and, asc, eq, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { Config } from "../config";
import type { Queryable } from "../db/client";
import { preparedStatement } from "../db/prepared";
import { campuses, user } from "../db/schema";
import campusList from "./campuses.json";

export { isSchoolEmailDomain } from "./names.shared";

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

/**
 * Decision 0135: a campus's privacy as PUBLIC_CAMPUSES sets it (spec 1 §3: 'all private in the
 * mapping'). The generic instance is no community and never private (spec 1 §6).
 */
export function campusPrivacy(
  campus: { id: string; generic?: boolean },
  publicCampuses: readonly string[],
): "public" | "private" {
  return campus.generic === true || publicCampuses.includes(campus.id) ? "public" : "private";
}

/**
 * Inserts missing campuses, refreshes their public facts and writes each one's privacy from
 * PUBLIC_CAMPUSES (decision 0135: configuration is the source of truth, applied at every start,
 * so the stored column always says what the operator configured); the page size stays, and so do
 * domains a site admin set on the console (decision 0562).
 */
export async function seedCampuses(db: Queryable, publicCampuses: readonly string[]): Promise<void> {
  await db
    .insert(campuses)
    .values(campusSeed.map((campus) => ({ ...campus, privacy: campusPrivacy(campus, publicCampuses) })))
    .onConflictDoUpdate({
      target: campuses.id,
      set: {
        code: sql`excluded.code`,
        name: sql`excluded.name`,
        school: sql`excluded.school`,
        city: sql`excluded.city`,
        state: sql`excluded.state`,
        country: sql`excluded.country`,
        // Decision 0562: a campus whose domains a site admin edited on the console keeps them.
        domains: sql`case when exists (select 1 from moderation_log l where l.target_kind = 'campus'
          and l.target_id = "campuses"."id" and l.action = 'set_domains') then "campuses"."domains"
          else excluded.domains end`,
        generic: sql`excluded.generic`,
        isDefault: sql`excluded.is_default`,
        privacy: sql`excluded.privacy`,
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

/** A Host header's name: lower case, without its port or a trailing dot. */
function hostName(hostHeader: string | null | undefined): string {
  return (hostHeader ?? "").trim().toLowerCase().replace(/:\d+$/, "").replace(/\.$/, "");
}

/**
 * Which campus a host name serves (docs/contract.md 'Campuses and hosts'):
 * a configured production host, then `{slug}.localhost`, else the default campus.
 */
export function campusIdForHost(
  hostHeader: string | undefined,
  productionHosts: Record<string, string>,
): string {
  const host = hostName(hostHeader);
  for (const [id, productionHost] of Object.entries(productionHosts)) {
    if (host === productionHost || host === `www.${productionHost}`) return id;
  }
  const match = /^([a-z0-9-]+)\.localhost$/.exec(host);
  if (match?.[1] && campusSeed.some((c) => c.id === match[1])) return match[1];
  return DEFAULT_CAMPUS_ID;
}

/** What the app's own addresses are configured from (docs/contract.md: PORT, PUBLIC_URL, CAMPUS_HOSTS, NODE_ENV). */
export type HostConfig = Pick<Config, "production" | "port" | "publicUrl" | "campusHosts">;

/** docs/contract.md 'Campuses and hosts': a campus's development host names, its own first. */
function developmentHostNames(campusId: string): string[] {
  if (campusId === DEFAULT_CAMPUS_ID) return ["localhost", "127.0.0.1", `${campusId}.localhost`];
  return [`${campusId}.localhost`];
}

/** PUBLIC_URL, when it is the address of this campus (the campus its host serves). */
function publicUrlOf(campusId: string, config: HostConfig): URL | null {
  if (!config.publicUrl) return null;
  const url = new URL(config.publicUrl);
  return campusIdForHost(url.host, config.campusHosts) === campusId ? url : null;
}

/**
 * Every origin a campus is reached on, its own first, from configuration alone: PUBLIC_URL
 * when its host serves the campus, the CAMPUS_HOSTS host (and its www.), and the development
 * hosts of docs/contract.md on PORT. In production a campus with a configured address has only
 * those (decision 0110); the development hosts all lead to the user's own machine.
 */
export function campusOrigins(campusId: string, config: HostConfig): string[] {
  const configured: string[] = [];
  const publicUrl = publicUrlOf(campusId, config);
  if (publicUrl) configured.push(publicUrl.origin);
  const productionHost = config.campusHosts[campusId];
  if (productionHost) configured.push(`https://${productionHost}`, `https://www.${productionHost}`);
  if (config.production && configured.length > 0) return [...new Set(configured)];
  const development = developmentHostNames(campusId).map((name) => `http://${name}:${config.port}`);
  return [...new Set([...configured, ...development])];
}

/**
 * The origin of links to a campus: in e-mails (sign-in links, password resets), 'View Your
 * Campus', shared post links. Decision 0110 (docs/contract.md PUBLIC_URL): PUBLIC_URL when
 * it serves the campus; else the host the request came to when it is one of the campus's own
 * (a student on localhost stays on localhost); else the campus's own address. A Host header the
 * configuration does not name never appears: whoever sends `Host: evil.example` gets a link to the
 * real site, so a mailed token cannot be made to travel to another server.
 */
export function campusOrigin(campusId: string, requestHost: string | null, config: HostConfig): string {
  const publicUrl = publicUrlOf(campusId, config);
  if (publicUrl) return publicUrl.origin;
  const origins = campusOrigins(campusId, config);
  const host = hostName(requestHost);
  const own = origins[0];
  if (!own) throw new Error(`campusOrigin: no origin for campus ${campusId}`);
  return origins.find((origin) => new URL(origin).hostname === host) ?? own;
}

/** Who 'About This Group' counts as a member of the campus: its school-verified users (spec 1 §2). */
export function campusMembersOf(campusId: string | Placeholder): SQL | undefined {
  return and(eq(user.campusId, campusId), eq(user.schoolVerified, true));
}

/**
 * 'About This Group' member count (spec 1 §2). A signed-in page reads it with the badges
 * (server/notifications/badges.ts readShellCounts), in the same statement.
 */
export async function countCampusMembers(db: Queryable, campusId: string): Promise<number> {
  // Every page's root loader reads it: prepared once (decision 0105).
  const statement = preparedStatement(db, "campus_member_count", () =>
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(user)
      .where(campusMembersOf(sql.placeholder("campusId"))),
  );
  const [row] = (await statement.execute({ campusId })) as { count: number }[];
  return row?.count ?? 0;
}
