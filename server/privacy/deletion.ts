import { randomUUID, timingSafeEqual } from "node:crypto";
import { APIError } from "better-auth/api";
import { and, eq, isNotNull, isNull, lte, notLike } from "drizzle-orm";
import { createElement } from "react";
import type { Auth } from "../accounts/auth";
import { generateCode } from "../accounts/codes";
import { clearFailures, isThrottled, PASSWORD_TRIES, recordFailure } from "../accounts/throttle";
import type { Viewer } from "../accounts/viewer";
import { campusBrand } from "../campuses/names.shared";
import type { AppContext } from "../context";
import { account, mailOutbox, user, verification } from "../db/schema";
import { countMailSince, enqueueMail } from "../mail/outbox";
import { renderMail } from "../mail/render";
import { VerificationCodeEmail } from "../mail/templates/verification-code";
import { assertNoActiveDeal } from "../trade/listing-hooks";
import { parseInput } from "../validation";
import { eraseAccount, NAMES_RESERVED_DAYS } from "./erase";
import { AccountDeletedEmail } from "./mails";
import { PRIVACY_MESSAGES, PrivacyError } from "./messages.shared";
import { deleteAccountSchema } from "./schemas.shared";

/**
 * Decision 0571: Delete my account. Confirmed with the password, or, for an account without one
 * (Google sign-in, e-mail links), a 4-digit code mailed to its address. The form is a POST of
 * the signed-in student's own session (server/http/middleware/security.ts refuses cross-site
 * posts), and the password is checked against that session by better-auth, so neither a forged
 * form nor a stale session can delete an account.
 */

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** As every code of the product (spec 1 §9): 2 hours, at most 3 mails an hour. */
const CODE_TTL_MS = 2 * HOUR_MS;
const MAX_CODE_MAILS_PER_HOUR = 3;
export const DELETION_CODE_MAIL_KIND = "account-deletion-code";
export const ACCOUNT_DELETED_MAIL_KIND = "account-deleted";

/**
 * Decision 0571: the code is kept in better-auth's `verification` table under this identifier
 * (verification_codes' purposes are a closed list in the schema). Wrong tries are counted by the
 * sign-in throttle, under the same key as wrong passwords.
 */
const codeIdentifier = (userId: string) => `delete-account:${userId}`;
const throttleKey = (userId: string) => `delete-account:${userId}`;

type Campus = { id: string; name: string; generic: boolean };

/** Whether the account signs in with a password (else it confirms with a mailed code). */
export async function hasPassword(ctx: AppContext, userId: string): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: account.id })
    .from(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, "credential"), isNotNull(account.password)))
    .limit(1);
  return row !== undefined;
}

/** Mails the 4-digit code that confirms a deletion, to an account without a password. */
export async function requestDeletionCode(ctx: AppContext, viewer: Viewer, campus: Campus): Promise<void> {
  if (await hasPassword(ctx, viewer.id)) throw new PrivacyError("has-password", PRIVACY_MESSAGES.usePassword);
  const now = ctx.clock.now();
  const code = generateCode();
  const { html, text } = await renderMail(
    createElement(VerificationCodeEmail, {
      code,
      campusName: campus.name,
      purpose: "confirm that you want to delete your account",
    }),
  );
  await ctx.db.transaction(async (tx) => {
    // One request at a time per account, so two cannot both pass the hourly cap.
    await tx.select({ id: user.id }).from(user).where(eq(user.id, viewer.id)).for("update");
    const sent = await countMailSince(
      tx,
      viewer.email,
      [DELETION_CODE_MAIL_KIND],
      new Date(now.getTime() - HOUR_MS),
    );
    if (sent >= MAX_CODE_MAILS_PER_HOUR)
      throw new PrivacyError("rate-limited", PRIVACY_MESSAGES.tooManyCodes);
    await tx.delete(verification).where(eq(verification.identifier, codeIdentifier(viewer.id)));
    await tx.insert(verification).values({
      id: randomUUID(),
      identifier: codeIdentifier(viewer.id),
      value: String(code),
      expiresAt: new Date(now.getTime() + CODE_TTL_MS),
      createdAt: now,
      updatedAt: now,
    });
    await enqueueMail(
      tx,
      {
        campusId: campus.id,
        kind: DELETION_CODE_MAIL_KIND,
        to: viewer.email,
        subject: `Your ${campusBrand(campus)} verification code`,
        html,
        text,
        expiresAt: new Date(now.getTime() + CODE_TTL_MS),
      },
      now,
    );
  });
  ctx.wakeMailWorker();
}

function sameCode(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function codeMatches(ctx: AppContext, userId: string, code: string): Promise<boolean> {
  const [row] = await ctx.db
    .select({ value: verification.value, expiresAt: verification.expiresAt })
    .from(verification)
    .where(eq(verification.identifier, codeIdentifier(userId)))
    .limit(1);
  return row !== undefined && row.expiresAt > ctx.clock.now() && sameCode(row.value, code);
}

/** The password of the account whose live session the request carries, and that account is the viewer's. */
async function passwordMatches(
  auth: Auth,
  viewer: Viewer,
  password: string,
  headers: Headers,
): Promise<boolean> {
  try {
    const current = await auth.api.getSession({ headers, query: { disableCookieCache: true } });
    if (current?.user.id !== viewer.id) return false;
    await auth.api.verifyPassword({ body: { password }, headers });
    return true;
  } catch (error) {
    if (error instanceof APIError) return false;
    throw error;
  }
}

/**
 * Deletes the viewer's account (decision 0571) once its password (or mailed code) is confirmed;
 * 5 wrong tries in 15 minutes lock it for 15 minutes. `headers` are the request's: the password
 * is checked against the session they carry. The goodbye mail goes after the deletion.
 */
export async function deleteAccount(
  ctx: AppContext,
  auth: Auth,
  viewer: Viewer,
  /** The form as sent (DeleteAccountInput once parsed): every field is checked here. */
  input: unknown,
  headers: Headers,
): Promise<void> {
  const value = parseInput(
    deleteAccountSchema,
    input,
    (issue) => new PrivacyError("invalid-input", issue.message, issue.field),
  );
  // Decision 0604: a deal in progress is finished or cancelled first; nothing is deleted.
  await assertNoActiveDeal(ctx.db, viewer.id);
  const now = ctx.clock.now();
  const key = throttleKey(viewer.id);
  const locked = () => new PrivacyError("too-many-tries", PRIVACY_MESSAGES.tooManyTries);
  if (await isThrottled(ctx.db, [key], now)) throw locked();
  const withPassword = await hasPassword(ctx, viewer.id);
  let confirmed: boolean;
  if (withPassword) {
    if (!value.password)
      throw new PrivacyError("invalid-input", PRIVACY_MESSAGES.passwordRequired, "password");
    confirmed = await passwordMatches(auth, viewer, value.password, headers);
  } else {
    if (!value.code) throw new PrivacyError("invalid-input", PRIVACY_MESSAGES.codeRequired, "code");
    confirmed = await codeMatches(ctx, viewer.id, value.code);
  }
  if (!confirmed) {
    if (await recordFailure(ctx.db, key, PASSWORD_TRIES, now)) throw locked();
    throw withPassword
      ? new PrivacyError("wrong-password", PRIVACY_MESSAGES.passwordWrong, "password")
      : new PrivacyError("wrong-code", PRIVACY_MESSAGES.codeWrong, "code");
  }
  await clearFailures(ctx.db, key);

  const erased = await eraseAccount(ctx, viewer.id);
  if (!erased) throw new PrivacyError("not-found", PRIVACY_MESSAGES.linkGone);
  for (const token of erased.sessionTokens) auth.sessionLookups.forget(token);

  const campus = ctx.campuses.get(erased.campusId);
  const campusName = campus ? campusBrand(campus) : "Campus Buy Sell";
  const { html, text } = await renderMail(createElement(AccountDeletedEmail, { campusName }));
  await enqueueMail(
    ctx.db,
    {
      campusId: erased.campusId,
      kind: ACCOUNT_DELETED_MAIL_KIND,
      to: erased.email,
      subject: "Your account has been deleted",
      html,
      text,
    },
    ctx.clock.now(),
  );
  ctx.wakeMailWorker();
}

/**
 * Decision 0571, the release job: 30 days after a deletion the username and the addresses are
 * replaced by `deleted.{id}` (a dot no chosen username may hold, so it can never collide), which
 * frees them for a new account; the mail sent to the old address goes too. Returns how many.
 */
export async function releaseDeletedAccounts(ctx: AppContext, limit = 100): Promise<number> {
  const cutoff = new Date(ctx.clock.now().getTime() - NAMES_RESERVED_DAYS * DAY_MS);
  const due = await ctx.db
    .select({ id: user.id, email: user.email })
    .from(user)
    .where(and(isNotNull(user.deletedAt), lte(user.deletedAt, cutoff), notLike(user.username, "deleted.%")))
    .limit(limit);
  for (const row of due) {
    await ctx.db.transaction(async (tx) => {
      await tx
        .delete(mailOutbox)
        .where(and(eq(mailOutbox.to, row.email.toLowerCase()), isNull(mailOutbox.userId)));
      await tx
        .update(user)
        .set({
          username: `deleted.${row.id.toLowerCase()}`,
          email: `deleted.${row.id.toLowerCase()}@deleted.invalid`,
          schoolEmail: null,
          updatedAt: ctx.clock.now(),
        })
        .where(and(eq(user.id, row.id), notLike(user.username, "deleted.%")));
    });
  }
  return due.length;
}
