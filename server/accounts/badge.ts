import { and, asc, eq, gt, isNull, lte } from "drizzle-orm";
import { createElement } from "react";
import { campusOrigin, getCampus } from "../campuses/campuses";
import type { AppContext } from "../context";
import { user } from "../db/schema";
import { enqueueMail } from "../mail/outbox";
import { renderMail } from "../mail/render";
import { BadgeReminderEmail } from "../mail/templates/badge-reminder";
import { notifyOwnAccount } from "../notifications/notify";
import { parseInput } from "../validation";
import {
  BADGE_MESSAGES,
  BADGE_REMINDER_DAYS,
  BADGE_RENEWAL_PATH,
  type BadgeFacts,
  badgeLapsesAt,
  badgeWillLapse,
  confirmedBeforeLapseAt,
  type StudentBadge,
  studentBadge,
} from "./badge.shared";
import { issueCode } from "./codes";
import { AccountError, invalidAccountInput } from "./errors.shared";
import { gradYearFormSchema } from "./grad-year.shared";
import type { Viewer } from "./viewer";

const DAY_MS = 24 * 60 * 60 * 1000;
/** A batch of the reminder job: the rest in the next run at once (registry: `more`). */
const REMINDER_BATCH = 100;
export const BADGE_REMINDER_MAIL_KIND = "badge-reminder";

/** What the school page and the year banner need of the viewer's badge (decision 0680). */
export interface BadgeState {
  badge: StudentBadge | null;
  gradYear: number | null;
  schoolVerified: boolean;
  schoolEmail: string | null;
  /** When the badge lapses; null when it does not (none, or an alum's). */
  lapsesAt: Date | null;
  /** A student badge that lapses can be renewed with a code to the school address, any time. */
  renewable: boolean;
}

async function badgeFactsOf(ctx: AppContext, userId: string) {
  const [row] = await ctx.db
    .select({
      schoolVerified: user.schoolVerified,
      schoolVerifiedAt: user.schoolVerifiedAt,
      gradYear: user.gradYear,
      schoolEmail: user.schoolEmail,
      campusId: user.campusId,
    })
    .from(user)
    .where(eq(user.id, userId))
    .limit(1);
  if (!row) throw new Error(`no user ${userId}`);
  return row;
}

export async function getBadgeState(ctx: AppContext, viewer: Viewer): Promise<BadgeState> {
  const facts = await badgeFactsOf(ctx, viewer.id);
  const now = ctx.clock.now();
  const badge = studentBadge(facts, now);
  const lapses =
    badgeWillLapse(facts) && facts.schoolVerifiedAt ? badgeLapsesAt(facts.schoolVerifiedAt) : null;
  return {
    badge,
    gradYear: facts.gradYear,
    schoolVerified: facts.schoolVerified,
    schoolEmail: facts.schoolEmail,
    lapsesAt: lapses,
    renewable: facts.schoolVerified && facts.schoolEmail !== null && badge?.kind !== "alum",
  };
}

/**
 * Decision 0682: renewing the badge is school verification again, to the address already
 * verified (no new address needed): a new code to the school e-mail of the student's own campus,
 * with the year chosen again. Entering it (verifySchoolEmailCode) starts a new 12 months.
 */
export async function sendBadgeRenewalCode(
  ctx: AppContext,
  viewer: Viewer,
  input: { gradYear?: unknown },
): Promise<{ email: string; campusId: string; gradYear: number; expiresAt: Date }> {
  const { gradYear } = parseInput(gradYearFormSchema(ctx.clock.now()), input, invalidAccountInput);
  const facts = await badgeFactsOf(ctx, viewer.id);
  if (!facts.schoolVerified || !facts.schoolEmail) {
    throw new AccountError("not-school-verified", BADGE_MESSAGES.notSchoolVerified);
  }
  const campus = await getCampus(ctx.db, facts.campusId);
  if (!campus || campus.generic)
    throw new AccountError("not-school-verified", BADGE_MESSAGES.notSchoolVerified);
  const { expiresAt } = await issueCode(ctx, {
    userId: viewer.id,
    purpose: "school_email",
    target: facts.schoolEmail,
    campus: { id: campus.id, name: campus.name, generic: campus.generic },
  });
  return { email: facts.schoolEmail, campusId: campus.id, gradYear, expiresAt };
}

/**
 * Decision 0682: the year banner. A school-verified student without a year gives it once; a set
 * year changes only with a new code (renewal), so no one moves their own 'Alum' date at will.
 */
export async function setMissingGradYear(
  ctx: AppContext,
  viewer: Viewer,
  input: { gradYear?: unknown },
): Promise<{ gradYear: number }> {
  const { gradYear } = parseInput(gradYearFormSchema(ctx.clock.now()), input, invalidAccountInput);
  const updated = await ctx.db
    .update(user)
    .set({ gradYear, updatedAt: ctx.clock.now() })
    .where(and(eq(user.id, viewer.id), eq(user.schoolVerified, true), isNull(user.gradYear)))
    .returning({ id: user.id });
  if (updated.length === 0) {
    const facts = await badgeFactsOf(ctx, viewer.id);
    if (!facts.schoolVerified)
      throw new AccountError("not-school-verified", BADGE_MESSAGES.notSchoolVerified);
    throw new AccountError("grad-year-set", BADGE_MESSAGES.gradYearSet, "gradYear");
  }
  return { gradYear };
}

/** 'December 1, 2026' (UTC), as the reminder writes the day the badge ends. */
function dayOf(at: Date): string {
  return at.toLocaleDateString("en-US", { timeZone: "UTC", month: "long", day: "numeric", year: "numeric" });
}

/**
 * The badge-reminders job (decision 0681): every badge that lapses within 30 days (or lapsed in the
 * last 30 without a reminder, the job having been stopped) and has not been reminded this period
 * gets one notification and one e-mail linking to the renewal page, and `badge_reminder_sent_at`.
 * A badge that turns into 'Alum' before it would lapse needs no renewal: its period is marked
 * settled without a word. Bounded batches on user_school_verified_at_idx; idempotent (the column).
 */
export async function sendBadgeReminders(ctx: AppContext): Promise<{ more: boolean }> {
  const now = ctx.clock.now();
  const lapsingBy = confirmedBeforeLapseAt(new Date(now.getTime() + BADGE_REMINDER_DAYS * DAY_MS));
  const lapsedSince = confirmedBeforeLapseAt(new Date(now.getTime() - BADGE_REMINDER_DAYS * DAY_MS));
  const batch = await ctx.db.transaction(async (tx) => {
    const due = await tx
      .select({
        id: user.id,
        email: user.email,
        campusId: user.campusId,
        schoolVerified: user.schoolVerified,
        schoolVerifiedAt: user.schoolVerifiedAt,
        gradYear: user.gradYear,
      })
      .from(user)
      .where(
        and(
          eq(user.schoolVerified, true),
          isNull(user.deletedAt),
          lte(user.schoolVerifiedAt, lapsingBy),
          gt(user.schoolVerifiedAt, lapsedSince),
          isNull(user.badgeReminderSentAt),
        ),
      )
      .orderBy(asc(user.schoolVerifiedAt))
      .limit(REMINDER_BATCH)
      .for("update", { skipLocked: true });
    for (const student of due) {
      await tx.update(user).set({ badgeReminderSentAt: now }).where(eq(user.id, student.id));
      const facts: BadgeFacts = student;
      if (!badgeWillLapse(facts) || !student.schoolVerifiedAt) continue;
      await notifyOwnAccount(tx, ctx, { to: student.id, campusId: student.campusId, type: "badge" });
      const heading = BADGE_MESSAGES.reminderNotice;
      const { html, text } = await renderMail(
        createElement(BadgeReminderEmail, {
          campusName: ctx.campuses.get(student.campusId)?.name ?? "Campus",
          heading,
          lapsesOn: dayOf(badgeLapsesAt(student.schoolVerifiedAt)),
          // Decision 0681: from the configured hosts, never from a request.
          renewUrl: `${campusOrigin(student.campusId, null, ctx.config)}${BADGE_RENEWAL_PATH}`,
        }),
      );
      await enqueueMail(
        tx,
        {
          campusId: student.campusId,
          kind: BADGE_REMINDER_MAIL_KIND,
          to: student.email,
          subject: "Keep your verified student badge",
          html,
          text,
        },
        now,
      );
    }
    return due.length;
  });
  if (batch > 0) ctx.wakeMailWorker();
  return { more: batch === REMINDER_BATCH };
}
