import { and, count, desc, eq, lt, or, sql } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import { mailOutbox, user } from "../db/schema";
import { cursorTime, decodeCursor, encodeCursor } from "../lists/cursor";
import { appendModerationLog } from "../staff/moderation-log";
import { requireSiteAdmin } from "../staff/roles";
import { parseInput } from "../validation";
import {
  CONSOLE_MESSAGES,
  ConsoleError,
  invalidConsoleInput,
  MAIL_STATES,
  type MailState,
  mailHistorySchema,
  type RetryMailInput,
  retryMailSchema,
} from "./console.shared";
import { oldestQueuedMail } from "./problems";

/**
 * Decision 0553: the console's Mail page (/admin/mail): the outbox by state, the oldest queued
 * mail's wait, a list per state, a student's mail history and Retry for a failed mail. Subjects
 * and recipients only, never a body: bodies hold codes and sign-in links.
 */

export type MailContext = Pick<AppContext, "db" | "clock" | "wakeMailWorker">;

export const MAIL_PAGE_SIZE = 25;
const HISTORY_SIZE = 50;

/** One mail as the console lists it. */
export interface ConsoleMail {
  id: string;
  campusId: string;
  kind: string;
  to: string;
  subject: string;
  status: MailState;
  attempts: number;
  /** The last delivery error; for a skipped mail, why it was skipped. */
  reason: string | null;
  createdAt: Date;
  sentAt: Date | null;
  /** Queued: when the next attempt is due; otherwise when the last attempt was made. */
  lastOrNextAttempt: Date;
}

export interface MailPage {
  counts: Record<MailState, number>;
  /** When the oldest queued mail began to wait (decision 0553), or null when none waits. */
  oldestQueuedSince: Date | null;
  state: MailState;
  mails: ConsoleMail[];
  nextCursor: string | null;
}

/** A skipped mail's reason when the worker wrote none (decision 0251's drop). */
const DROPPED_REASON =
  "Nothing left to say: the notifications were read, deleted or turned off before it was sent.";

/**
 * A subject with any number of four or more digits masked: the code mails' subjects carry none
 * today (docs/contract.md 'Mail'), and the console must never show one if a template changes.
 */
export function withoutCodes(subject: string): string {
  return subject.replace(/\d{4,}/g, "••••");
}

const LIST_COLUMNS = {
  id: mailOutbox.id,
  campusId: mailOutbox.campusId,
  kind: mailOutbox.kind,
  to: mailOutbox.to,
  subject: mailOutbox.subject,
  status: mailOutbox.status,
  attempts: mailOutbox.attempts,
  lastError: mailOutbox.lastError,
  createdAt: mailOutbox.createdAt,
  sentAt: mailOutbox.sentAt,
  nextAttemptAt: mailOutbox.nextAttemptAt,
};

type ListRow = {
  id: string;
  campusId: string;
  kind: string;
  to: string;
  subject: string;
  status: MailState;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  sentAt: Date | null;
  nextAttemptAt: Date;
};

function consoleMail(row: ListRow): ConsoleMail {
  return {
    id: row.id,
    campusId: row.campusId,
    kind: row.kind,
    to: row.to,
    subject: withoutCodes(row.subject),
    status: row.status,
    attempts: row.attempts,
    reason: row.status === "dropped" ? (row.lastError ?? DROPPED_REASON) : row.lastError,
    createdAt: row.createdAt,
    sentAt: row.sentAt,
    lastOrNextAttempt: row.nextAttemptAt,
  };
}

/** The state asked for in the address, or the queued mails. */
export function readMailState(value: string | null): MailState {
  return (MAIL_STATES as readonly string[]).includes(value ?? "") ? (value as MailState) : "pending";
}

/**
 * Decision 0553: the counts by state and one page of a state's mails, newest attempt first: the
 * order mail_outbox_due_idx (status, next_attempt_at) serves, read backwards.
 */
export async function getMailPage(
  ctx: MailContext,
  viewer: Pick<Viewer, "id"> | null,
  params: { state: MailState; cursor: string | null },
): Promise<MailPage> {
  await requireSiteAdmin(ctx, viewer);
  const key = params.cursor ? decodeCursor(params.cursor) : null;
  const [countRows, oldestQueuedSince, rows] = await Promise.all([
    ctx.db.select({ status: mailOutbox.status, n: count() }).from(mailOutbox).groupBy(mailOutbox.status),
    oldestQueuedMail(ctx.db, ctx.clock.now()),
    ctx.db
      .select({ ...LIST_COLUMNS, cursorTime: cursorTime(mailOutbox.nextAttemptAt) })
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.status, params.state),
          key
            ? or(
                lt(mailOutbox.nextAttemptAt, sql`${key.time}::timestamptz`),
                and(eq(mailOutbox.nextAttemptAt, sql`${key.time}::timestamptz`), lt(mailOutbox.id, key.id)),
              )
            : undefined,
        ),
      )
      .orderBy(desc(mailOutbox.nextAttemptAt), desc(mailOutbox.id))
      .limit(MAIL_PAGE_SIZE + 1),
  ]);
  const counts = { pending: 0, sent: 0, failed: 0, dropped: 0 };
  for (const row of countRows) counts[row.status] = row.n;
  const page = rows.slice(0, MAIL_PAGE_SIZE);
  const last = page.at(-1);
  return {
    counts,
    oldestQueuedSince,
    state: params.state,
    mails: page.map(consoleMail),
    nextCursor:
      rows.length > MAIL_PAGE_SIZE && last ? encodeCursor({ time: last.cursorTime, id: last.id }) : null,
  };
}

export interface MailHistory {
  /** Whose history: the account's sign-in address and username. */
  email: string;
  username: string | null;
  mails: ConsoleMail[];
}

/**
 * Decision 0553: a student's mail history — the latest 50 mails to their sign-in or school address,
 * found by either address or by username; subjects only (mail_outbox_to_kind_idx serves each
 * address). An address no account holds is still searched: mail goes to addresses before accounts.
 */
export async function getMailHistory(
  ctx: MailContext,
  viewer: Pick<Viewer, "id"> | null,
  input: { who: string },
): Promise<MailHistory> {
  await requireSiteAdmin(ctx, viewer);
  const { who } = parseInput(mailHistorySchema, input, (issue) =>
    invalidConsoleInput({ ...issue, field: "who" }),
  );
  const needle = who.replace(/^@/, "").toLowerCase();
  const [account] = await ctx.db
    .select({ email: user.email, username: user.username, schoolEmail: user.schoolEmail })
    .from(user)
    .where(
      needle.includes("@")
        ? or(eq(user.email, needle), eq(user.schoolEmail, needle))
        : eq(user.username, needle),
    )
    .limit(1);
  if (!account && !needle.includes("@")) {
    throw new ConsoleError("invalid-input", CONSOLE_MESSAGES.historyUnknown, "who");
  }
  const addresses = account
    ? [account.email, account.schoolEmail].filter((a): a is string => Boolean(a))
    : [needle];
  const rows = await ctx.db
    .select(LIST_COLUMNS)
    .from(mailOutbox)
    .where(or(...addresses.map((address) => eq(mailOutbox.to, address.toLowerCase()))))
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(HISTORY_SIZE);
  return {
    email: account?.email ?? needle,
    username: account?.username ?? null,
    mails: rows.map(consoleMail),
  };
}

/**
 * Decision 0553: 'Retry' on a failed mail — back in the queue, due now, its attempts from zero, and
 * the worker woken after the commit; logged with the site admin as actor. Refused when the mail is
 * no longer failed, when its code or link has expired (it would fail again at once), and when a
 * newer notification e-mail of its kind is already queued for the student (it says the same).
 */
export async function retryMail(
  ctx: MailContext,
  viewer: Pick<Viewer, "id"> | null,
  input: RetryMailInput,
): Promise<{ to: string }> {
  const admin = await requireSiteAdmin(ctx, viewer);
  const { mailId } = parseInput(retryMailSchema, input, invalidConsoleInput);
  const now = ctx.clock.now();
  const retried = await ctx.db.transaction(async (tx) => {
    const [mail] = await tx
      .select({
        id: mailOutbox.id,
        campusId: mailOutbox.campusId,
        kind: mailOutbox.kind,
        to: mailOutbox.to,
        status: mailOutbox.status,
        attempts: mailOutbox.attempts,
        lastError: mailOutbox.lastError,
        expiresAt: mailOutbox.expiresAt,
        userId: mailOutbox.userId,
      })
      .from(mailOutbox)
      .where(eq(mailOutbox.id, mailId))
      .limit(1)
      .for("update");
    if (!mail) throw new ConsoleError("mail-not-found", CONSOLE_MESSAGES.mailNotFound);
    if (mail.status !== "failed") throw new ConsoleError("mail-not-failed", CONSOLE_MESSAGES.mailNotFailed);
    if (mail.expiresAt && mail.expiresAt <= now) {
      throw new ConsoleError("mail-expired", CONSOLE_MESSAGES.mailExpired);
    }
    if (mail.userId) {
      // Decision 0251: one queued notification e-mail per student and kind (a unique index).
      const [queued] = await tx
        .select({ id: mailOutbox.id })
        .from(mailOutbox)
        .where(
          and(
            eq(mailOutbox.userId, mail.userId),
            eq(mailOutbox.kind, mail.kind),
            eq(mailOutbox.status, "pending"),
          ),
        )
        .limit(1);
      if (queued) throw new ConsoleError("mail-newer-queued", CONSOLE_MESSAGES.mailNewerQueued);
    }
    await tx
      .update(mailOutbox)
      .set({ status: "pending", attempts: 0, nextAttemptAt: now })
      .where(eq(mailOutbox.id, mail.id));
    await appendModerationLog(tx, {
      campusId: null,
      actorId: admin.id,
      source: "staff",
      actorRole: "site_admin",
      action: "retry_mail",
      targetKind: "mail",
      targetId: mail.id,
      targetUserId: mail.userId,
      details: { kind: mail.kind, attempts: mail.attempts, lastError: mail.lastError },
      at: now,
    });
    return { to: mail.to };
  });
  ctx.wakeMailWorker();
  return retried;
}
