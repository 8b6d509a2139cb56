import { APIError } from "better-auth/api";
import { and, eq, ne } from "drizzle-orm";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import type { BirthDate } from "../db/schema";
import { user } from "../db/schema";
import { syncConfiguredAdminOf } from "../staff/configured-admins";
import { parseInput } from "../validation";
import type { Auth } from "./auth";
import { issueCode, verifyCode } from "./codes";
import { AccountError, invalidAccountInput, SETTINGS_ERRORS } from "./errors.shared";
import { isReservedUsername } from "./reserved-usernames.shared";
import {
  type BirthDateInput,
  birthDateSchema,
  type ChangeEmailInput,
  type ChangePasswordInput,
  changeEmailSchema,
  changePasswordSchema,
  type Gender,
  type GenderInput,
  genderSchema,
  type PhoneInput,
  phoneSchema,
  pinSchema,
  type UsernameInput,
  usernameSchema,
} from "./schemas.shared";
import { clearFailures, isThrottled, PASSWORD_TRIES, recordFailure } from "./throttle";
import type { Viewer } from "./viewer";

/** What the account overview shows (spec 1 §2 'Settings'). */
export interface AccountOverview {
  username: string;
  email: string;
  phone: string | null;
  schoolEmail: string | null;
  schoolVerified: boolean;
  createdAt: Date;
  gender: Gender | null;
  birthDate: BirthDate | null;
}

export async function getAccountOverview(ctx: AppContext, userId: string): Promise<AccountOverview> {
  const [row] = await ctx.db
    .select({
      username: user.username,
      email: user.email,
      phone: user.phone,
      schoolEmail: user.schoolEmail,
      schoolVerified: user.schoolVerified,
      createdAt: user.createdAt,
      gender: user.gender,
      birthDate: user.birthDate,
    })
    .from(user)
    .where(eq(user.id, userId))
    .limit(1);
  if (!row) throw new Error(`getAccountOverview: no user ${userId}`);
  return row;
}

/** spec 1 §2 'Payments': the user's available funds, in cents (spec 1 §3). */
export async function getAvailableFunds(ctx: AppContext, userId: string): Promise<number> {
  const [row] = await ctx.db
    .select({ availableFunds: user.availableFunds })
    .from(user)
    .where(eq(user.id, userId))
    .limit(1);
  if (!row) throw new Error(`getAvailableFunds: no user ${userId}`);
  return row.availableFunds;
}

/**
 * spec 1 §5 'Username change': 4 to 50 letters, digits, _ or -, saved in lower case,
 * refused with 'That username has been taken.' when any other account has it.
 * The same name again changes nothing.
 */
export async function changeUsername(
  ctx: AppContext,
  viewer: Viewer,
  input: UsernameInput,
): Promise<{ username: string; changed: boolean }> {
  const { username } = parseInput(usernameSchema, input, invalidAccountInput);
  const taken = () => new AccountError("username-taken", SETTINGS_ERRORS.usernameTaken, "username");
  // A reserved name (a page's path, the staff's, a campus's) is taken for good (decision 0125).
  if (isReservedUsername(username)) throw taken();
  const [other] = await ctx.db
    .select({ id: user.id })
    .from(user)
    .where(and(eq(user.username, username), ne(user.id, viewer.id)))
    .limit(1);
  if (other) throw taken();
  try {
    const updated = await ctx.db
      .update(user)
      .set({ username, updatedAt: ctx.clock.now() })
      .where(and(eq(user.id, viewer.id), ne(user.username, username)))
      .returning({ id: user.id });
    return { username, changed: updated.length > 0 };
  } catch (error) {
    // Two accounts claiming the same name at once: the unique index decides.
    if (isUniqueViolation(error, "user_username_unique")) throw taken();
    throw error;
  }
}

function apiErrorCode(error: unknown): string | undefined {
  if (!(error instanceof APIError)) return undefined;
  const code: unknown = error.body?.code;
  return typeof code === "string" ? code : undefined;
}

const passwordChangeThrottleKey = (userId: string) => `password-change:${userId}`;

/**
 * spec 1 §2 /settings/account/password, §5 'Password change': checks the current
 * password through better-auth (scrypt), sets the new one and ends the account's
 * other sessions (a stolen session stops working; this one gets a fresh cookie,
 * returned in `headers`). A wrong current password answers 'Invalid password.'
 * (spec 1 §8); 5 wrong ones within 15 minutes lock password changes for 15 minutes,
 * like sign-in (decision 0040).
 */
export async function changePassword(
  ctx: AppContext,
  auth: Auth,
  viewer: Viewer,
  input: ChangePasswordInput,
  requestHeaders: Headers,
): Promise<{ headers: Headers }> {
  const { currentPassword, newPassword } = parseInput(changePasswordSchema, input, invalidAccountInput);
  const key = passwordChangeThrottleKey(viewer.id);
  const now = ctx.clock.now();
  const locked = () => new AccountError("too-many-requests", SETTINGS_ERRORS.tooManyPasswordTries);
  if (await isThrottled(ctx.db, [key], now)) throw locked();
  try {
    const result = await auth.api.changePassword({
      body: { currentPassword, newPassword, revokeOtherSessions: true },
      headers: requestHeaders,
      returnHeaders: true,
    });
    await clearFailures(ctx.db, key);
    return { headers: result.headers };
  } catch (error) {
    const code = apiErrorCode(error);
    if (code === "INVALID_PASSWORD") {
      if (await recordFailure(ctx.db, key, PASSWORD_TRIES, now)) throw locked();
      throw new AccountError("invalid-password", SETTINGS_ERRORS.invalidPassword, "currentPassword");
    }
    // Accounts made with Google have no password to change (spec 1 §2: 'not available').
    if (code === "CREDENTIAL_ACCOUNT_NOT_FOUND") {
      throw new AccountError("no-password", SETTINGS_ERRORS.noPassword);
    }
    throw error;
  }
}

async function emailOwner(db: Queryable, email: string, exceptUserId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: user.id })
    .from(user)
    .where(and(eq(user.email, email), ne(user.id, exceptUserId)))
    .limit(1);
  return row?.id ?? null;
}

const emailTaken = () => new AccountError("email-taken", SETTINGS_ERRORS.emailTaken, "email");

/**
 * spec 1 §4 'E-mail change', first half: a new address that no account uses gets a
 * 4-digit code (purpose 'change_email', the caps of every code); nothing changes yet.
 */
export async function requestEmailChange(
  ctx: AppContext,
  viewer: Viewer,
  input: ChangeEmailInput,
  campus: { id: string; name: string; generic: boolean },
): Promise<{ email: string; expiresAt: Date }> {
  const [me] = await ctx.db.select({ email: user.email }).from(user).where(eq(user.id, viewer.id)).limit(1);
  if (!me) throw new Error(`requestEmailChange: no user ${viewer.id}`);
  const { email } = parseInput(changeEmailSchema(me.email), input, invalidAccountInput);
  if (await emailOwner(ctx.db, email, viewer.id)) throw emailTaken();
  const { expiresAt } = await issueCode(ctx, {
    userId: viewer.id,
    purpose: "change_email",
    target: email,
    campus,
  });
  return { email, expiresAt };
}

/**
 * spec 1 §4 'E-mail change', second half: the right code makes the address it was
 * sent to the account's e-mail (better-auth signs in with user.email) and deletes the
 * code, in one transaction. The code proves the address, so the e-mail counts as
 * verified (decision 0040).
 */
export async function confirmEmailChange(
  ctx: AppContext,
  viewer: Viewer,
  input: { code: string },
): Promise<{ email: string }> {
  const { code } = parseInput(pinSchema, input, invalidAccountInput);
  const outcome: { email?: string } = {};
  try {
    await verifyCode(ctx, { userId: viewer.id, purpose: "change_email", code }, async (tx, proven) => {
      if (await emailOwner(tx, proven.target, viewer.id)) throw emailTaken();
      await tx
        .update(user)
        .set({ email: proven.target, verified: true, updatedAt: ctx.clock.now() })
        .where(eq(user.id, viewer.id));
      // Decision 0522: the new address may be in ADMIN_EMAILS, or the old one may have been.
      await syncConfiguredAdminOf(ctx, tx, viewer.id);
      outcome.email = proven.target;
    });
  } catch (error) {
    if (isUniqueViolation(error, "user_email_unique")) throw emailTaken();
    throw error;
  }
  if (!outcome.email) throw new Error("confirmEmailChange: verified without an address");
  return { email: outcome.email };
}

/** spec 1 §5 'Phone': required, the phone pattern, input max 20; stored as typed (trimmed). */
export async function changePhone(
  ctx: AppContext,
  viewer: Viewer,
  input: PhoneInput,
): Promise<{ phone: string }> {
  const { phone } = parseInput(phoneSchema, input, invalidAccountInput);
  await ctx.db.update(user).set({ phone, updatedAt: ctx.clock.now() }).where(eq(user.id, viewer.id));
  return { phone };
}

/** spec 1 §5 'Gender': male, female or other ('Must select a gender'); never shown publicly (§6). */
export async function changeGender(
  ctx: AppContext,
  viewer: Viewer,
  input: GenderInput,
): Promise<{ gender: Gender }> {
  const { gender } = parseInput(genderSchema, input, invalidAccountInput);
  await ctx.db.update(user).set({ gender, updatedAt: ctx.clock.now() }).where(eq(user.id, viewer.id));
  return { gender };
}

/** spec 1 §5 'Birth date': month, day and year of the spec's lists, and a day that exists. */
export async function changeBirthDate(
  ctx: AppContext,
  viewer: Viewer,
  input: BirthDateInput,
): Promise<{ birthDate: BirthDate }> {
  const birthDate = parseInput(birthDateSchema, input, invalidAccountInput);
  await ctx.db.update(user).set({ birthDate, updatedAt: ctx.clock.now() }).where(eq(user.id, viewer.id));
  return { birthDate };
}
