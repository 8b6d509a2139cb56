import { verifyPassword } from "better-auth/crypto";
import { and, eq } from "drizzle-orm";
import { clearFailures, isThrottled, PASSWORD_TRIES, recordFailure } from "../accounts/throttle";
import { account, session } from "../db/schema";
import type { StaffContext } from "../staff/roles";
import { ADMIN_MESSAGES, AdminError } from "./errors.shared";

/** Decision 0563: a sign-in younger than this (by the clock) confirms a destructive console action by itself. */
export const REAUTH_AFTER_MS = 10 * 60 * 1000;

/** The request's own session, for the check below. */
export interface AdminSession {
  token: string | null;
}

/** Which sign-in the request carries, and the password the form may add. */
export interface ReauthProof {
  /** The token of the request's session (the cookie's part before its signature), or null. */
  sessionToken: string | null;
  /** What the admin typed in the form's password field, if anything. */
  password: string | null;
}

/** The session part of a better-auth cookie value (`{token}.{signature}`), which the session row holds. */
export function sessionTokenOf(cookieValue: string | null | undefined): string | null {
  if (!cookieValue) return null;
  const dot = cookieValue.lastIndexOf(".");
  return dot > 0 ? cookieValue.slice(0, dot) : cookieValue;
}

/** Whether the console's destructive forms should show the password field now (decision 0563). */
export async function signInIsRecent(ctx: StaffContext, adminId: string, sessionToken: string | null) {
  if (!sessionToken) return false;
  const [current] = await ctx.db
    .select({ createdAt: session.createdAt })
    .from(session)
    .where(and(eq(session.token, sessionToken), eq(session.userId, adminId)))
    .limit(1);
  return current !== undefined && ctx.clock.now().getTime() - current.createdAt.getTime() <= REAUTH_AFTER_MS;
}

const reauthThrottleKey = (userId: string) => `console-reauth:${userId}`;

/**
 * Decision 0563: the one check before a destructive console action (suspend, ban, sign out
 * everywhere, refund). The admin's own session must have been signed in less than 10 minutes ago
 * by the clock; else the form's password must be theirs. Wrong passwords count like sign-in's
 * (5 in 15 minutes lock it for 15). An account without a password signs in again instead.
 * Called after requireSiteAdmin and before the action's transaction.
 */
export async function requireRecentSignIn(
  ctx: StaffContext,
  adminId: string,
  proof: ReauthProof,
): Promise<void> {
  const now = ctx.clock.now();
  if (await signInIsRecent(ctx, adminId, proof.sessionToken)) return;
  if (!proof.password) throw new AdminError("reauth-required", ADMIN_MESSAGES.passwordRequired, "password");
  const key = reauthThrottleKey(adminId);
  const locked = () => new AdminError("too-many-requests", ADMIN_MESSAGES.tooManyPasswordTries, "password");
  if (await isThrottled(ctx.db, [key], now)) throw locked();
  const [credential] = await ctx.db
    .select({ hash: account.password })
    .from(account)
    .where(and(eq(account.userId, adminId), eq(account.providerId, "credential")))
    .limit(1);
  if (!credential?.hash) throw new AdminError("no-password", ADMIN_MESSAGES.noPassword, "password");
  if (!(await verifyPassword({ hash: credential.hash, password: proof.password }))) {
    if (await recordFailure(ctx.db, key, PASSWORD_TRIES, now)) throw locked();
    throw new AdminError("invalid-password", ADMIN_MESSAGES.invalidPassword, "password");
  }
  await clearFailures(ctx.db, key);
}
