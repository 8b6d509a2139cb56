import { randomInt, timingSafeEqual } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import { createElement } from "react";
import { campusBrand } from "../campuses/names.shared";
import type { AppContext } from "../context";
import type { Queryable, Tx } from "../db/client";
import { user, verificationCodes } from "../db/schema";
import { countMailSince, enqueueMail } from "../mail/outbox";
import { renderMail } from "../mail/render";
import { VerificationCodeEmail } from "../mail/templates/verification-code";
import { syncConfiguredAdminOf } from "../staff/configured-admins";
import { recountTrustLevel } from "../trust/recount";
import { ACCOUNT_MESSAGES, AccountError } from "./errors.shared";

/** Which address a code proves (spec 1 §4): sign-up e-mail, a new e-mail, a school e-mail. */
export type CodePurpose = "email" | "change_email" | "school_email";

/** spec 1 §9: a code is valid for 2 hours. */
export const CODE_TTL_MS = 2 * 60 * 60 * 1000;
/** A code dies after this many wrong tries (decision 0021: 4 digits are only 13 bits). */
export const MAX_CODE_ATTEMPTS = 5;
/** At most this many code mails per address per hour (decision 0021). */
export const MAX_CODE_MAILS_PER_HOUR = 3;
export const CODE_MAIL_KIND = "verification-code";
const HOUR_MS = 60 * 60 * 1000;

const purposeText: Record<CodePurpose, string> = {
  email: "verify your email address",
  change_email: "confirm your new email address",
  school_email: "verify your school email address",
};

/** spec 1 §3 / §9: a random 4-digit number, 1000 to 9999. */
export function generateCode(): number {
  return randomInt(1000, 10_000);
}

export interface IssueCodeInput {
  userId: string;
  purpose: CodePurpose;
  /** The address the code is mailed to (lower case). */
  target: string;
  /** The community the mail speaks for. */
  campus: { id: string; name: string; generic: boolean };
}

/**
 * Issues a code and queues its mail in one transaction (spec 1 §3 'Verification
 * record', §9): the new code replaces older ones of the same purpose; at most 3
 * code mails per address per hour.
 */
export async function issueCode(
  ctx: AppContext,
  input: IssueCodeInput,
  alsoInTransaction?: (tx: Queryable) => Promise<void>,
): Promise<{ expiresAt: Date }> {
  const now = ctx.clock.now();
  const target = input.target.toLowerCase();
  const code = generateCode();
  const expiresAt = new Date(now.getTime() + CODE_TTL_MS);
  const { html, text } = await renderMail(
    createElement(VerificationCodeEmail, {
      code,
      campusName: input.campus.name,
      purpose: purposeText[input.purpose],
    }),
  );

  await ctx.db.transaction(async (tx) => {
    // One issuer at a time per user, so two requests cannot both pass the hourly cap.
    const [owner] = await tx
      .select({ id: user.id })
      .from(user)
      .where(eq(user.id, input.userId))
      .for("update");
    if (!owner) throw new Error(`issueCode: no user ${input.userId}`);
    const recent = await countMailSince(tx, target, [CODE_MAIL_KIND], new Date(now.getTime() - HOUR_MS));
    if (recent >= MAX_CODE_MAILS_PER_HOUR) {
      throw new AccountError("too-many-mails", ACCOUNT_MESSAGES.tooManyCodes);
    }
    await tx
      .delete(verificationCodes)
      .where(and(eq(verificationCodes.userId, input.userId), eq(verificationCodes.purpose, input.purpose)));
    await tx.insert(verificationCodes).values({
      userId: input.userId,
      campusId: input.campus.id,
      purpose: input.purpose,
      target,
      code,
      createdAt: now,
      expiresAt,
    });
    await enqueueMail(
      tx,
      {
        campusId: input.campus.id,
        kind: CODE_MAIL_KIND,
        to: target,
        subject: `Your ${campusBrand(input.campus)} verification code`,
        html,
        text,
        // A code mail is worthless once its code expires (decision 0031).
        expiresAt,
      },
      now,
    );
    // Decision 0561: a code an admin resends from the console commits with its log row.
    await alsoInTransaction?.(tx);
  });
  ctx.wakeMailWorker();
  return { expiresAt };
}

/** Constant-time comparison, so response times say nothing about how close a guess was. */
function sameCode(expected: number, given: string): boolean {
  const a = Buffer.from(String(expected));
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface VerifyCodeInput {
  userId: string;
  purpose: CodePurpose;
  /** What the user typed. */
  code: string;
}

/**
 * Checks a code (spec 1 §5 'Verify'): it must be the latest issued for this
 * purpose, younger than 2 hours and not dead after 5 wrong tries. A wrong code
 * counts a try. The right one is deleted and `onVerified` runs in the same
 * transaction (it makes the change the code proves).
 */
export async function verifyCode(
  ctx: AppContext,
  input: VerifyCodeInput,
  onVerified: (tx: Tx, proven: { target: string; campusId: string }) => Promise<void>,
): Promise<void> {
  const now = ctx.clock.now();
  const outcome = await ctx.db.transaction(async (tx) => {
    // Locked, so parallel guesses are counted one after the other.
    const [row] = await tx
      .select()
      .from(verificationCodes)
      .where(and(eq(verificationCodes.userId, input.userId), eq(verificationCodes.purpose, input.purpose)))
      .orderBy(desc(verificationCodes.createdAt))
      .limit(1)
      .for("update");
    if (!row || row.expiresAt <= now) return "incorrect" as const;
    if (row.failedAttempts >= MAX_CODE_ATTEMPTS) return "dead" as const;
    if (!sameCode(row.code, input.code.trim())) {
      const [updated] = await tx
        .update(verificationCodes)
        .set({ failedAttempts: sql`${verificationCodes.failedAttempts} + 1` })
        .where(eq(verificationCodes.id, row.id))
        .returning({ failedAttempts: verificationCodes.failedAttempts });
      return (updated?.failedAttempts ?? MAX_CODE_ATTEMPTS) >= MAX_CODE_ATTEMPTS
        ? ("dead" as const)
        : ("incorrect" as const);
    }
    await tx.delete(verificationCodes).where(eq(verificationCodes.id, row.id));
    await onVerified(tx, { target: row.target, campusId: row.campusId });
    return "verified" as const;
  });
  if (outcome === "incorrect") {
    throw new AccountError("code-incorrect", ACCOUNT_MESSAGES.codeIncorrect, "code");
  }
  if (outcome === "dead") throw new AccountError("code-dead", ACCOUNT_MESSAGES.codeDead, "code");
}

/** The sign-up e-mail code (spec 1 §4): mailed to the account's own address. */
export async function issueEmailCode(
  ctx: AppContext,
  userId: string,
  campus: { id: string; name: string; generic: boolean },
  alsoInTransaction?: (tx: Queryable) => Promise<void>,
): Promise<{ expiresAt: Date; email: string }> {
  const [row] = await ctx.db
    .select({ email: user.email, verified: user.verified })
    .from(user)
    .where(eq(user.id, userId))
    .limit(1);
  if (!row) throw new Error(`issueEmailCode: no user ${userId}`);
  if (row.verified) throw new AccountError("already-verified", ACCOUNT_MESSAGES.alreadyVerified);
  const { expiresAt } = await issueCode(
    ctx,
    { userId, purpose: "email", target: row.email, campus },
    alsoInTransaction,
  );
  return { expiresAt, email: row.email };
}

/** spec 1 §4/§5: the right code marks the e-mail verified and is deleted, in one transaction. */
export async function verifyEmailCode(ctx: AppContext, userId: string, code: string): Promise<void> {
  await verifyCode(ctx, { userId, purpose: "email", code }, async (tx, proven) => {
    // The code proves the address it was sent to; if the account's address changed since, it proves nothing.
    const updated = await tx
      .update(user)
      .set({ verified: true, updatedAt: ctx.clock.now() })
      .where(and(eq(user.id, userId), eq(user.email, proven.target)))
      .returning({ id: user.id });
    if (updated.length === 0)
      throw new AccountError("code-incorrect", ACCOUNT_MESSAGES.codeIncorrect, "code");
    // Decision 0522: a verified address in ADMIN_EMAILS makes a site admin.
    await syncConfiguredAdminOf(ctx, tx, userId);
    // Decision 0660: a verified e-mail is part of every trust level.
    await recountTrustLevel(tx, ctx, userId);
  });
}
