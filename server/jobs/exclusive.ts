import { createHash } from "node:crypto";
import type { AppContext } from "../context";

/**
 * Jobs that must run in one process at a time (decision 0291): with WORKERS=n, or several
 * machines on one PostgreSQL database, every process starts the same periodic jobs (the job
 * registry, server/jobs/registry.ts, decision 0480); a 'one-process' job's run takes the job's
 * named lock here first and is skipped where the lock is taken. This is the only advisory lock
 * jobs use: one key per job name, derived below, in one namespace.
 *
 * On PostgreSQL the lock is a session-level advisory lock (`pg_try_advisory_lock`) held by
 * one pooled connection for the whole round: it is shared by every process and machine on the
 * database, and a process that dies (even `kill -9`) loses its connection and with it the lock.
 * On the embedded database only one process exists, so a lock within the process is the same.
 *
 * Not for work that can be shared out: the mail outbox claims rows with FOR UPDATE SKIP LOCKED
 * (server/mail/outbox.ts), so every process may deliver at once and none delivers a mail twice.
 */

/** The first key of the two-key advisory locks taken here; migrations use a one-key lock (server/db/migrate.ts). */
export const JOB_LOCK_NAMESPACE = 720_461_002;

/** The lock a 'one-process' job's runs hold (decision 0480). */
export function jobLockName(jobName: string): string {
  return `job:${jobName}`;
}

/** A lock name's second key: the first four bytes of its SHA-256, as PostgreSQL's signed int4. */
export function jobLockKey(lockName: string): number {
  return createHash("sha256").update(lockName).digest().readInt32BE(0);
}

export type ExclusiveRun<T> = { ran: true; value: T } | { ran: false };

/** Lock names held through each database handle (one per process in the app), on either database. */
const heldByHandle = new WeakMap<AppContext["database"], Set<string>>();

/**
 * Runs `fn` unless another run holding `lockName` is under way, in this process or any other
 * on the same database: `{ ran: true, value }`, or `{ ran: false }` without waiting. The lock is
 * released when `fn` settles; an error from `fn` is thrown after the release.
 *
 * While `fn` runs, one connection of this process's pool holds the lock (PostgreSQL): keep
 * rounds short and few per process.
 */
export async function runExclusively<T>(
  ctx: Pick<AppContext, "database">,
  lockName: string,
  fn: () => Promise<T>,
): Promise<ExclusiveRun<T>> {
  if (lockName === "") throw new Error("runExclusively: the lock needs a name");
  let heldHere = heldByHandle.get(ctx.database);
  if (!heldHere) {
    heldHere = new Set();
    heldByHandle.set(ctx.database, heldHere);
  }
  if (heldHere.has(lockName)) return { ran: false };
  heldHere.add(lockName);
  try {
    const pool = ctx.database.pool;
    if (!pool) return { ran: true, value: await fn() };
    const client = await pool.connect();
    let broken = false;
    // The pool listens for errors of idle connections only: one that ends while this run holds it
    // (a server restart, pg_terminate_backend) would otherwise end the process.
    const onError = () => {
      broken = true;
    };
    client.on("error", onError);
    try {
      const key = jobLockKey(lockName);
      const { rows } = await client.query<{ locked: boolean }>(
        "select pg_try_advisory_lock($1, $2) as locked",
        [JOB_LOCK_NAMESPACE, key],
      );
      if (!rows[0]?.locked) return { ran: false };
      try {
        return { ran: true, value: await fn() };
      } finally {
        try {
          await client.query("select pg_advisory_unlock($1, $2)", [JOB_LOCK_NAMESPACE, key]);
        } catch {
          // The session is unusable: dropping the connection releases its lock.
          broken = true;
        }
      }
    } finally {
      client.off("error", onError);
      client.release(broken);
    }
  } finally {
    heldHere.delete(lockName);
  }
}
