import { getSessionCookie } from "better-auth/cookies";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { AppContext } from "../context";
import { preparedStatement } from "../db/prepared";
import { user } from "../db/schema";
import type { Auth } from "./auth";

/** The signed-in user as pages need them. */
export interface Viewer {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  username: string;
  img: string | null;
  campusId: string;
  verified: boolean;
  schoolVerified: boolean;
  schoolEmail: string | null;
  /** Decision 0682: the class year; null for a student verified before it was asked (the year banner). */
  gradYear: number | null;
  profileSetUp: boolean;
  banned: boolean;
  /** Decision 0543: suspended until then (compare with the clock); null when never suspended. */
  suspendedUntil: Date | null;
  /** spec 1 §1: the campus whose site the generic instance sends this user to (set on school verification). */
  redirectTo: string | null;
}

const viewerColumns = {
  id: user.id,
  email: user.email,
  firstName: user.firstName,
  lastName: user.lastName,
  username: user.username,
  img: user.img,
  campusId: user.campusId,
  verified: user.verified,
  schoolVerified: user.schoolVerified,
  schoolEmail: user.schoolEmail,
  gradYear: user.gradYear,
  profileSetUp: user.profileSetUp,
  banned: user.banned,
  suspendedUntil: user.suspendedUntil,
  redirectTo: user.redirectTo,
};

/** Read on every signed-in request: prepared once (decision 0105). */
export async function getViewerById(ctx: AppContext, userId: string): Promise<Viewer | null> {
  const statement = preparedStatement(ctx.db, "viewer_by_id", () =>
    ctx.db
      .select(viewerColumns)
      .from(user)
      // Decision 0571: a deleted account is nobody, whatever session or cache still names it.
      .where(and(eq(user.id, sql.placeholder("userId")), isNull(user.deletedAt)))
      .limit(1),
  );
  const [row] = (await statement.execute({ userId })) as Viewer[];
  return row ?? null;
}

/** better-auth's own lookup (signature, session row, expiry), remembered for a few seconds (decision 0350). */
async function lookUpSession(auth: Auth, headers: Headers, cookieValue: string): Promise<string | null> {
  const found = await auth.api.getSession({ headers });
  if (!found) return null;
  // Only what this very cookie names: a request carrying two session cookies teaches the cache nothing.
  if (cookieValue.startsWith(`${found.session.token}.`)) {
    auth.sessionLookups.remember(cookieValue, found.user.id, new Date(found.session.expiresAt));
  }
  return found.user.id;
}

/** The viewer of a request from its session cookie, or null when signed out (or banned since). */
export async function getViewerFromHeaders(
  ctx: AppContext,
  auth: Auth,
  headers: Headers,
): Promise<Viewer | null> {
  // Most requests are visitors': without a session cookie there is nothing to look up, and
  // better-auth would still build its whole request context (bench/README.md measured it).
  const cookieValue = getSessionCookie(headers);
  if (!cookieValue) return null;
  const userId = auth.sessionLookups.get(cookieValue) ?? (await lookUpSession(auth, headers, cookieValue));
  if (!userId) return null;
  const viewer = await getViewerById(ctx, userId);
  if (!viewer || viewer.banned) return null;
  return viewer;
}
