import { createHash } from "node:crypto";
import type { AppContext } from "../context";
import { type Poller, startPolling } from "./polling";

/**
 * Jobs that must run in one process at a time (decision 0291): with WORKERS=n,
 * or several machines on one PostgreSQL database, every process starts the same periodic
 * jobs; each round takes a named lock first and is skipped where the lock is taken.
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

/** A singleton job's handle: wake() runs a round now, stop() at shutdown. */
export type SingletonJob = Poller;

export interface SingletonJobOptions {
  /** Names the lock (`job:{name}`) and the job in the log. */
  name: string;
  /** How often each process tries to run a round. */
  everyMs: number;
  /**
   * One round. Return `{ more: true }` when there is more to do at once (a full batch): the
   * round is repeated while this process holds the lock, without waiting for the timer.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a round that returns nothing is a plain async function.
  run(): Promise<void | { more: boolean }>;
}

/**
 * A periodic job that runs in exactly one process at a time: every process calls this at start
 * (server/http/app.ts) and stops it at shutdown; each tick runs a round through runExclusively,
 * so where another process holds the round the tick does nothing. A round that throws is logged
 * and the next tick tries again.
 */
export function startSingletonJob(
  ctx: Pick<AppContext, "database" | "log">,
  options: SingletonJobOptions,
): SingletonJob {
  return startPolling({
    everyMs: options.everyMs,
    async round(stopping) {
      await runExclusively(ctx, `job:${options.name}`, async () => {
        for (;;) {
          const result = await options.run();
          if (stopping() || !result?.more) break;
        }
      });
    },
    onError: (error) => ctx.log.error({ err: error, job: options.name }, "job round failed"),
  });
}
