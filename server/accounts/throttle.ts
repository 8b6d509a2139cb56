import { and, eq, gt, inArray } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { loginThrottle } from "../db/schema";

/** How many failures within a window lock a key, and for how long (decision 0021). */
export interface ThrottleRule {
  maxFailures: number;
  windowMs: number;
  lockMs: number;
}

const MINUTE = 60_000;

/** 5 wrong passwords for one account within 15 minutes lock that account for 15 minutes. */
export const ACCOUNT_THROTTLE: ThrottleRule = { maxFailures: 5, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE };
/**
 * 50 failed sign-ins from one address within 15 minutes lock that address for 15 minutes. Higher than
 * the account limit because a whole campus network may share one public address (decision 0021).
 */
export const ADDRESS_THROTTLE: ThrottleRule = { maxFailures: 50, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE };

export const accountThrottleKey = (email: string) => `account:${email.toLowerCase()}`;
export const addressThrottleKey = (ip: string) => `ip:${ip}`;

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
  return db.transaction(async (tx) => {
    await tx
      .insert(loginThrottle)
      .values({ key, failures: 0, windowStartedAt: now })
      .onConflictDoNothing({ target: loginThrottle.key });
    const [row] = await tx.select().from(loginThrottle).where(eq(loginThrottle.key, key)).for("update");
    if (!row) throw new Error(`login_throttle row ${key} vanished`);
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
    return locks;
  });
}

/** Forgets a key's failures (a successful sign-in, a password reset). */
export async function clearFailures(db: Queryable, key: string): Promise<void> {
  await db.delete(loginThrottle).where(eq(loginThrottle.key, key));
}
