import { and, eq, gt, inArray, or, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { loginThrottle } from "../db/schema";

/** How many failures within a window lock a key, and for how long (decision 0021). */
export interface ThrottleRule {
  maxFailures: number;
  windowMs: number;
  lockMs: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * 5 wrong passwords within 15 minutes lock for 15 minutes: at sign-in per account and client
 * address (decision 0127: someone else's guesses lock their own address, never the owner's), for a
 * password change per user (decision 0040).
 */
export const PASSWORD_TRIES: ThrottleRule = { maxFailures: 5, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE };
/**
 * 20 wrong passwords for one account from one address within a day lock that pair for a day: one
 * address may not guess slowly either, and so it never brings an account near ACCOUNT_THROTTLE.
 */
export const PASSWORD_TRIES_DAILY: ThrottleRule = { maxFailures: 20, windowMs: DAY, lockMs: DAY };
/**
 * Slow guessing from many addresses: 100 wrong passwords for one account within a day lock the
 * account everywhere for an hour. Each address adds at most 20 (PASSWORD_TRIES_DAILY), so it takes
 * at least 5 addresses: one attacker's address cannot lock the owner out (decision 0127).
 */
export const ACCOUNT_THROTTLE: ThrottleRule = { maxFailures: 100, windowMs: DAY, lockMs: HOUR };
/**
 * 50 failed sign-ins from one address within 15 minutes lock that address for 15 minutes. Higher than
 * the account limit because a whole campus network may share one public address (decision 0021).
 */
export const ADDRESS_THROTTLE: ThrottleRule = { maxFailures: 50, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE };

/**
 * Sign-ups (by password or e-mail link) per client address: `max` within the window, then none for
 * as long again (decisions 0127, 0446; by default 25 in 5 minutes, server/config.ts).
 */
export function signUpThrottle(limit: { max: number; windowMs: number }): ThrottleRule {
  return { maxFailures: limit.max, windowMs: limit.windowMs, lockMs: limit.windowMs };
}

export const accountThrottleKey = (email: string) => `account:${email.toLowerCase()}`;
export const addressThrottleKey = (ip: string) => `ip:${ip}`;
/** The keys of one account and one address (without an address, 'unknown' stands for all such requests). */
export const pairThrottleKeys = (email: string, ip: string | null) => {
  const pair = `${email.toLowerCase()}|${ip ?? "unknown"}`;
  return { burst: `pair:${pair}`, daily: `pair-day:${pair}` };
};
const pairKeyPrefixes = (email: string) => [
  `pair:${email.toLowerCase()}|`,
  `pair-day:${email.toLowerCase()}|`,
];
export const signUpThrottleKey = (ip: string) => `sign-up:${ip}`;

/** Whether any of the keys is locked at `now`. */
export async function isThrottled(db: Queryable, keys: string[], now: Date): Promise<boolean> {
  if (keys.length === 0) return false;
  const locked = await db
    .select({ key: loginThrottle.key })
    .from(loginThrottle)
    .where(and(inArray(loginThrottle.key, keys), gt(loginThrottle.lockedUntil, now)))
    .limit(1);
  return locked.length > 0;
}

/** Counts one failure; returns true when it locked the key. */
export async function recordFailure(
  db: Queryable,
  key: string,
  rule: ThrottleRule,
  now: Date,
): Promise<boolean> {
  return (await count(db, key, rule, now, { refuseWhileLocked: false })) === "locked";
}

/**
 * Takes one of the rule's attempts for `key` (sign-ups of an address): false, counting nothing,
 * while the key is locked; otherwise counts it (the rule's maximum-th attempt locks the key for
 * the next ones) and returns true. Check and count are one step under the row's lock, so
 * parallel requests cannot all slip through.
 */
export async function takeAttempt(
  db: Queryable,
  key: string,
  rule: ThrottleRule,
  now: Date,
): Promise<boolean> {
  return (await count(db, key, rule, now, { refuseWhileLocked: true })) !== "refused";
}

async function count(
  db: Queryable,
  key: string,
  rule: ThrottleRule,
  now: Date,
  options: { refuseWhileLocked: boolean },
): Promise<"counted" | "locked" | "refused"> {
  return db.transaction(async (tx) => {
    await tx
      .insert(loginThrottle)
      .values({ key, failures: 0, windowStartedAt: now })
      .onConflictDoNothing({ target: loginThrottle.key });
    const [row] = await tx.select().from(loginThrottle).where(eq(loginThrottle.key, key)).for("update");
    if (!row) throw new Error(`login_throttle row ${key} vanished`);
    if (options.refuseWhileLocked && row.lockedUntil && row.lockedUntil > now) return "refused";
    const windowOver = row.windowStartedAt.getTime() + rule.windowMs <= now.getTime();
    const failures = windowOver ? 1 : row.failures + 1;
    const locks = failures >= rule.maxFailures;
    await tx
      .update(loginThrottle)
      .set(
        locks
          ? // A fresh window starts with the lock, so failures before it do not count afterwards.
            { failures: 0, windowStartedAt: now, lockedUntil: new Date(now.getTime() + rule.lockMs) }
          : {
              failures,
              windowStartedAt: windowOver ? now : row.windowStartedAt,
              lockedUntil: row.lockedUntil && row.lockedUntil > now ? row.lockedUntil : null,
            },
      )
      .where(eq(loginThrottle.key, key));
    return locks ? "locked" : "counted";
  });
}

/** Forgets a key's failures (a successful sign-in, a password reset). */
export async function clearFailures(db: Queryable, key: string): Promise<void> {
  await db.delete(loginThrottle).where(eq(loginThrottle.key, key));
}

/**
 * Lifts every sign-in lock of an account, from every address (a password reset: spec 1 §8
 * 'You can immediately restore it by resetting your password').
 */
export async function clearAccountLocks(db: Queryable, email: string): Promise<void> {
  await db
    .delete(loginThrottle)
    .where(
      or(
        eq(loginThrottle.key, accountThrottleKey(email)),
        ...pairKeyPrefixes(email).map((prefix) => sql`starts_with(${loginThrottle.key}, ${prefix})`),
      ),
    );
}
