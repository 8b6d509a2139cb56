import { and, asc, desc, eq, gte, inArray, lte, sql } from "drizzle-orm";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { mailOutbox } from "../db/schema";

export type OutboxRow = typeof mailOutbox.$inferSelect;

export interface MailToQueue {
  campusId: string;
  kind: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  /** After this the mail is not worth delivering (a code that expired). */
  expiresAt?: Date | null;
  /** Not delivered before this moment (a notification e-mail's delay, decision 0251). */
  notBefore?: Date;
  /** The user a mail composed at send time is for (decision 0251). */
  userId?: string;
  /** Extra headers, e.g. List-Unsubscribe (RFC 8058). */
  headers?: Record<string, string>;
}

/**
 * Decision 0251: a mail whose subject and body are written when it is sent, from what is
 * still true then. `compose` returns null to drop the mail; `afterSend` records what went.
 */
export interface ComposedMail {
  subject: string;
  html: string;
  text: string;
  headers?: Record<string, string>;
  afterSend?: () => Promise<void>;
}
export type MailComposer = (ctx: AppContext, row: OutboxRow) => Promise<ComposedMail | null>;
/** Composers by mail kind, for the rows queued with a `userId` (those are never sent as stored). */
export type MailComposers = Readonly<Record<string, MailComposer>>;

/** Queues a mail; call it with the transaction that makes the change the mail reports. */
export async function enqueueMail(db: Queryable, mail: MailToQueue, now: Date): Promise<void> {
  await enqueueMails(db, [mail], now);
}

/** Queues many mails in one statement (a job's batch, decision 0630). */
export async function enqueueMails(db: Queryable, mails: readonly MailToQueue[], now: Date): Promise<void> {
  if (mails.length === 0) return;
  await db
    .insert(mailOutbox)
    .values(
      mails.map((mail) => ({
        campusId: mail.campusId,
        kind: mail.kind,
        to: mail.to.toLowerCase(),
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        expiresAt: mail.expiresAt ?? null,
        nextAttemptAt: mail.notBefore ?? now,
        createdAt: now,
        userId: mail.userId ?? null,
        headers: mail.headers ?? null,
      })),
    )
    // Decision 0251: a notification e-mail already pending for the user takes this one in.
    .onConflictDoNothing();
}

/** How many mails of a kind went to an address since a moment (the 3-an-hour cap of codes). */
export async function countMailSince(
  db: Queryable,
  to: string,
  kinds: string[],
  since: Date,
): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(mailOutbox)
    .where(
      and(
        eq(mailOutbox.to, to.toLowerCase()),
        inArray(mailOutbox.kind, kinds),
        gte(mailOutbox.createdAt, since),
      ),
    );
  return row?.count ?? 0;
}

export const MAX_DELIVERY_ATTEMPTS = 10;
/** Mails one round claims. With the SMTP timeouts (transport.ts) a round ends well within its lease. */
export const MAIL_BATCH_SIZE = 10;
/**
 * While a worker sends a claimed mail, other workers leave it alone for this
 * long; a worker that crashed mid-round has its mail picked up after it.
 */
export const CLAIM_LEASE_MS = 10 * 60_000;

/** Exponential back-off: 5 s, 10 s, 20 s … capped at 30 minutes. */
export function retryDelayMs(attempts: number): number {
  return Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 30 * 60_000);
}

export interface DeliveryRound {
  sent: number;
  /** Failed attempts that will be tried again after the back-off. */
  retrying: number;
  /** Mails given up on: too many attempts, or expired (a code nobody can use any more). */
  failed: number;
}

/**
 * Claims due mail (FOR UPDATE SKIP LOCKED, so any number of workers can share
 * the outbox), sends it, and records the outcome. At least once: a crash after
 * sending and before recording sends again when the lease runs out.
 */
export async function deliverDueMail(
  ctx: AppContext,
  limit = MAIL_BATCH_SIZE,
  composers: MailComposers = {},
): Promise<DeliveryRound> {
  const now = ctx.clock.now();
  const claimed = await ctx.db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.status, "pending"), lte(mailOutbox.nextAttemptAt, now)))
      .orderBy(asc(mailOutbox.nextAttemptAt))
      .limit(limit)
      .for("update", { skipLocked: true });
    if (due.length === 0) return [];
    await tx
      .update(mailOutbox)
      .set({
        nextAttemptAt: new Date(now.getTime() + CLAIM_LEASE_MS),
        attempts: sql`${mailOutbox.attempts} + 1`,
      })
      .where(
        inArray(
          mailOutbox.id,
          due.map((row) => row.id),
        ),
      );
    return due;
  });

  const round: DeliveryRound = { sent: 0, retrying: 0, failed: 0 };
  for (const row of claimed) {
    const attempts = row.attempts + 1;
    // spec 1 §5: a code is only good for two hours; a late code mail would only confuse.
    if (row.expiresAt && row.expiresAt <= ctx.clock.now()) {
      await ctx.db
        .update(mailOutbox)
        .set({ status: "failed", lastError: "expired before it could be delivered" })
        .where(eq(mailOutbox.id, row.id));
      round.failed++;
      continue;
    }
    try {
      // Only rows queued for composing carry a user; any other row is sent as it was written.
      const compose = row.userId ? composers[row.kind] : undefined;
      if (!compose && row.userId) throw new Error(`no composer for mail kind ${row.kind}`);
      const composed: ComposedMail | null = compose
        ? await compose(ctx, row)
        : {
            subject: row.subject,
            html: row.html,
            text: row.text,
            ...(row.headers ? { headers: row.headers } : {}),
          };
      if (!composed) {
        // Decision 0251: everything it would have said was read, deleted or turned off meanwhile.
        await ctx.db
          .update(mailOutbox)
          .set({ status: "dropped", lastError: null })
          .where(eq(mailOutbox.id, row.id));
        continue;
      }
      await ctx.mail.send({
        to: row.to,
        subject: composed.subject,
        html: composed.html,
        text: composed.text,
        ...(composed.headers ? { headers: composed.headers } : {}),
      });
      await ctx.db
        .update(mailOutbox)
        .set({
          status: "sent",
          sentAt: ctx.clock.now(),
          lastError: null,
          subject: composed.subject,
          html: composed.html,
          text: composed.text,
          headers: composed.headers ?? null,
        })
        .where(eq(mailOutbox.id, row.id));
      await composed.afterSend?.();
      round.sent++;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const nextAttemptAt = new Date(ctx.clock.now().getTime() + retryDelayMs(attempts));
      const givesUp =
        attempts >= MAX_DELIVERY_ATTEMPTS || (row.expiresAt !== null && row.expiresAt <= nextAttemptAt);
      await ctx.db
        .update(mailOutbox)
        .set(givesUp ? { status: "failed", lastError: message } : { nextAttemptAt, lastError: message })
        .where(eq(mailOutbox.id, row.id));
      ctx.log.warn({ mailId: row.id, attempts, error: message, givesUp }, "mail delivery failed");
      if (givesUp) round.failed++;
      else round.retrying++;
    }
  }
  return round;
}

/** One line of the development mailbox (/dev/mail). */
export type MailboxEntry = Pick<
  OutboxRow,
  | "id"
  | "campusId"
  | "kind"
  | "to"
  | "subject"
  | "text"
  | "status"
  | "attempts"
  | "lastError"
  | "createdAt"
  | "sentAt"
>;

/** The development mailbox (/dev/mail): the newest mail first, with what that screen shows. */
export async function listRecentMail(db: Queryable, limit = 50): Promise<MailboxEntry[]> {
  return db
    .select({
      id: mailOutbox.id,
      campusId: mailOutbox.campusId,
      kind: mailOutbox.kind,
      to: mailOutbox.to,
      subject: mailOutbox.subject,
      text: mailOutbox.text,
      status: mailOutbox.status,
      attempts: mailOutbox.attempts,
      lastError: mailOutbox.lastError,
      createdAt: mailOutbox.createdAt,
      sentAt: mailOutbox.sentAt,
    })
    .from(mailOutbox)
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(limit);
}
