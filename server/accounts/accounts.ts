import { randomBytes } from "node:crypto";
import { APIError } from "better-auth/api";
import { and, eq, gt, like, or, sql } from "drizzle-orm";
import { createElement } from "react";
import { getCampus } from "../campuses/campuses";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { bannedEmails, user, verification } from "../db/schema";
import { countMailSince, enqueueMail } from "../mail/outbox";
import { renderMail } from "../mail/render";
import { PasswordResetEmail } from "../mail/templates/password-reset";
import { parseInput } from "../validation";
import type { Auth } from "./auth";
import { issueEmailCode } from "./codes";
import { ACCOUNT_MESSAGES, AccountError, invalidAccountInput } from "./errors.shared";
import { normaliseNames, usernameBase } from "./names.shared";
import { isReservedUsername } from "./reserved-usernames.shared";
import {
  forgotPasswordSchema,
  type LoginInput,
  loginSchema,
  type RegisterInput,
  type ResetPasswordInput,
  registerSchema,
  resetPasswordSchema,
} from "./schemas.shared";
import {
  ACCOUNT_THROTTLE,
  ADDRESS_THROTTLE,
  accountThrottleKey,
  addressThrottleKey,
  clearAccountLocks,
  clearFailures,
  isThrottled,
  PASSWORD_TRIES,
  PASSWORD_TRIES_DAILY,
  pairThrottleKeys,
  recordFailure,
  signUpThrottle,
  signUpThrottleKey,
  takeAttempt,
} from "./throttle";

const HOUR_MS = 60 * 60 * 1000;
/** A reset link works for one hour (the PasswordResetEmail text says so). */
export const RESET_TOKEN_TTL_MS = HOUR_MS;
/** At most this many reset mails per address per hour, like codes (decision 0021). */
export const MAX_RESET_MAILS_PER_HOUR = 3;
export const RESET_MAIL_KIND = "password-reset";
/** better-auth's identifier for reset tokens in its `verification` table. */
const resetIdentifier = (token: string) => `reset-password:${token}`;

function apiErrorCode(error: unknown): string | undefined {
  if (!(error instanceof APIError)) return undefined;
  const code: unknown = error.body?.code;
  return typeof code === "string" ? code : undefined;
}

async function findUserByEmail(db: Queryable, email: string) {
  const [row] = await db
    .select({
      id: user.id,
      email: user.email,
      banned: user.banned,
      verified: user.verified,
      // Decision 0571: a deleted account keeps its address 30 days (taken for sign-up), signs in never.
      deleted: sql<boolean>`${user.deletedAt} is not null`,
    })
    .from(user)
    .where(eq(user.email, email.toLowerCase()))
    .limit(1);
  return row ?? null;
}

/** Decision 0543: whether a moderator's Ban refuses this address at sign-up. */
async function isBannedEmail(db: Queryable, email: string): Promise<boolean> {
  const [row] = await db
    .select({ email: bannedEmails.email })
    .from(bannedEmails)
    .where(eq(bannedEmails.email, email.toLowerCase()))
    .limit(1);
  return row !== undefined;
}

/**
 * spec 1 §5: the base username, else base-2, base-3 … whichever is free first. A reserved
 * name (a page's path, the staff's, a campus's; decision 0125) is never free, so
 * 'Hom E.' signs up as home-2. Every sign-up path (password, e-mail link, Google) comes here.
 */
export async function findFreeUsername(db: Queryable, base: string): Promise<string> {
  // The base holds only a–z and 0–9, so it is safe inside a LIKE pattern.
  const rows = await db
    .select({ username: user.username })
    .from(user)
    .where(or(eq(user.username, base), like(user.username, `${base}-%`)));
  const taken = new Set(rows.map((row) => row.username));
  const free = (candidate: string) => !taken.has(candidate) && !isReservedUsername(candidate);
  if (free(base)) return base;
  for (let suffix = 2; ; suffix++) {
    const candidate = `${base}-${suffix}`;
    if (free(candidate)) return candidate;
  }
}

/**
 * Counts one sign-up from a client address (decision 0127): at most
 * 25 in 5 minutes (decision 0446; SIGN_UPS_PER_HOUR sets an hourly count instead), password and e-mail-link
 * sign-ups together; then 'Too many sign-ups from this network. Try again in a few minutes.'.
 * Without an address (a caller that has none) nothing is counted.
 */
export async function takeSignUpAttempt(ctx: AppContext, clientIp: string | null): Promise<void> {
  if (!clientIp) return;
  const limit = ctx.config.signUpLimit;
  if (!(await takeAttempt(ctx.db, signUpThrottleKey(clientIp), signUpThrottle(limit), ctx.clock.now()))) {
    // The wait the message names is the rule's own (an hour only under SIGN_UPS_PER_HOUR).
    const message =
      limit.windowMs >= 60 * 60_000 ? ACCOUNT_MESSAGES.tooManySignUpsHour : ACCOUNT_MESSAGES.tooManySignUps;
    throw new AccountError("too-many-sign-ups", message);
  }
}

export interface SignedIn {
  userId: string;
  verified: boolean;
  /** Set-Cookie headers of the new session, for the response. */
  headers: Headers;
}

/**
 * Sign-up with e-mail and password (spec 1 §4, §5): normalised names, a free
 * username, the user created through better-auth (verified false, school_verified
 * false, email_notifications true, available_funds 0, campus of the host), signed
 * in, and a 4-digit code mailed. At most 25 in 5 minutes per client address (decision 0446).
 */
export async function registerUser(
  ctx: AppContext,
  auth: Auth,
  input: RegisterInput,
  options: { campusId: string; clientIp: string | null; headers: Headers },
): Promise<SignedIn> {
  const { fullName, email, password } = parseInput(registerSchema, input, invalidAccountInput);
  const campus = await getCampus(ctx.db, options.campusId);
  if (!campus) throw new Error(`registerUser: unknown campus ${options.campusId}`);

  const existing = await findUserByEmail(ctx.db, email);
  // spec 1 §6: a banned address cannot come back as a new account; nor one a moderator's Ban
  // stored (decision 0543, banned_emails, lower-cased like every sign-in address).
  if (existing?.banned || (await isBannedEmail(ctx.db, email))) {
    throw new AccountError("banned", ACCOUNT_MESSAGES.banned);
  }
  if (existing) throw new AccountError("email-taken", ACCOUNT_MESSAGES.emailTaken, "email");
  // Counted once the request would create an account, so typos in the form cost nothing.
  await takeSignUpAttempt(ctx, options.clientIp);

  const { firstName, lastName } = normaliseNames(fullName);
  const base = usernameBase(firstName, lastName);
  let created: { userId: string; headers: Headers } | null = null;
  // Two sign-ups may pick the same free username at once; the unique index refuses
  // the second, which then takes the next suffix.
  for (let attempt = 1; !created; attempt++) {
    const username = await findFreeUsername(ctx.db, base);
    try {
      const result = await auth.api.signUpEmail({
        body: {
          name: `${firstName} ${lastName}`,
          email,
          password,
          firstName,
          lastName,
          username,
          campusId: campus.id,
        },
        headers: options.headers,
        returnHeaders: true,
      });
      created = { userId: result.response.user.id, headers: result.headers };
    } catch (error) {
      const code = apiErrorCode(error);
      if (code === "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL") {
        throw new AccountError("email-taken", ACCOUNT_MESSAGES.emailTaken, "email");
      }
      if (code === "PASSWORD_TOO_SHORT") {
        throw new AccountError("invalid-input", ACCOUNT_MESSAGES.weakPassword, "password");
      }
      if (code === "FAILED_TO_CREATE_USER" && attempt < 3) continue;
      throw error;
    }
  }

  try {
    await issueEmailCode(ctx, created.userId, campus);
  } catch (error) {
    // The account exists and is signed in; /verify offers 'Send a new code'.
    if (!(error instanceof AccountError)) throw error;
    ctx.log.warn({ userId: created.userId, reason: error.code }, "no code mailed at sign-up");
  }
  return { userId: created.userId, verified: false, headers: created.headers };
}

/**
 * Sign-in with e-mail and password (spec 1 §5 'Login', §8), throttled before the password is
 * even checked (decisions 0021, 0127): per account and client address (5 wrong passwords in
 * 15 minutes, 20 in a day), per account from all addresses together (100 in a day: slow
 * guessing from many places), and per address over all accounts (50 failures in 15 minutes).
 * Someone guessing from elsewhere locks their own address, not the owner's. A new session each time.
 */
/** One hash per hasher, made the first time it is needed (one scrypt run per process). */
const dummyHashes = new WeakMap<object, Promise<string>>();

/**
 * The work of checking `password` against an account's hash, for a sign-in with no account
 * (decision 0447): the same hasher better-auth verifies real passwords with (its context's
 * `password`), against a hash of a random secret nobody knows, so the answer is always false.
 */
async function checkAgainstDummyHash(auth: Auth, password: string): Promise<void> {
  const hasher = (await auth.$context).password;
  let hash = dummyHashes.get(hasher);
  if (!hash) {
    hash = hasher.hash(randomBytes(32).toString("base64url"));
    dummyHashes.set(hasher, hash);
  }
  await hasher.verify({ hash: await hash, password });
}

export async function signIn(
  ctx: AppContext,
  auth: Auth,
  input: LoginInput,
  options: { clientIp: string | null; headers: Headers },
): Promise<SignedIn> {
  const { email, password } = parseInput(loginSchema, input, invalidAccountInput);
  const now = ctx.clock.now();
  const accountKey = accountThrottleKey(email);
  const pairKeys = pairThrottleKeys(email, options.clientIp);
  const addressKey = options.clientIp ? addressThrottleKey(options.clientIp) : null;
  const lockout = () => new AccountError("too-many-requests", ACCOUNT_MESSAGES.tooManyRequests);

  const keys = [pairKeys.burst, pairKeys.daily, accountKey, ...(addressKey ? [addressKey] : [])];
  if (await isThrottled(ctx.db, keys, now)) throw lockout();

  const addressFailure = async () =>
    addressKey ? recordFailure(ctx.db, addressKey, ADDRESS_THROTTLE, now) : false;

  const found = await findUserByEmail(ctx.db, email);
  if (!found || found.deleted) {
    // Decision 0447: the spec's messages tell an unknown address from a wrong password, but
    // the time to answer must not add to that: the password is checked against a hash all the same.
    await checkAgainstDummyHash(auth, password);
    if (await addressFailure()) throw lockout();
    throw new AccountError("user-not-found", ACCOUNT_MESSAGES.userNotFound);
  }
  if (found.banned) throw new AccountError("banned", ACCOUNT_MESSAGES.banned);

  try {
    const result = await auth.api.signInEmail({
      body: { email, password },
      headers: options.headers,
      returnHeaders: true,
    });
    // This address's count starts again; the account's count over all addresses does not, or
    // the owner signing in would wipe out a slow guesser's tally.
    await clearFailures(ctx.db, pairKeys.burst);
    await clearFailures(ctx.db, pairKeys.daily);
    return { userId: result.response.user.id, verified: found.verified, headers: result.headers };
  } catch (error) {
    if (apiErrorCode(error) !== "INVALID_EMAIL_OR_PASSWORD") throw error;
    const locked = [
      await recordFailure(ctx.db, pairKeys.burst, PASSWORD_TRIES, now),
      await recordFailure(ctx.db, pairKeys.daily, PASSWORD_TRIES_DAILY, now),
      await recordFailure(ctx.db, accountKey, ACCOUNT_THROTTLE, now),
      await addressFailure(),
    ];
    // The failure that locks says so at once rather than one attempt later.
    if (locked.some(Boolean)) throw lockout();
    throw new AccountError("wrong-password", ACCOUNT_MESSAGES.wrongPassword, "password");
  }
}

/** Deletes the request's session (spec 1 §2 /logout); returns the headers that clear its cookie. */
export async function signOut(auth: Auth, headers: Headers): Promise<Headers> {
  const result = await auth.api.signOut({ headers, returnHeaders: true });
  return result.headers;
}

export type PasswordResetRequest = { status: "sent"; email: string } | { status: "not-found" };

/**
 * Forgot password (spec 1 §2, §5): an unknown address is reported (the screen
 * alerts 'User not found, try again!'); a known one gets a reset link to
 * /reset-password on the campus's site. The token row and the mail are written
 * in one transaction.
 */
export async function requestPasswordReset(
  ctx: AppContext,
  rawEmail: string,
  options: { campus: { id: string; name: string }; campusOrigin: string },
): Promise<PasswordResetRequest> {
  const { email } = parseInput(forgotPasswordSchema, { email: rawEmail }, invalidAccountInput);
  const found = await findUserByEmail(ctx.db, email);
  if (!found || found.deleted) return { status: "not-found" };
  if (found.banned) throw new AccountError("banned", ACCOUNT_MESSAGES.banned);

  const now = ctx.clock.now();
  const token = randomBytes(32).toString("base64url");
  const url = `${options.campusOrigin}/reset-password?token=${encodeURIComponent(token)}`;
  const { html, text } = await renderMail(
    createElement(PasswordResetEmail, { url, campusName: options.campus.name }),
  );
  await ctx.db.transaction(async (tx) => {
    // One request at a time per user, so two cannot both pass the hourly cap.
    await tx.select({ id: user.id }).from(user).where(eq(user.id, found.id)).for("update");
    const recent = await countMailSince(tx, email, [RESET_MAIL_KIND], new Date(now.getTime() - HOUR_MS));
    if (recent >= MAX_RESET_MAILS_PER_HOUR) {
      throw new AccountError("too-many-mails", ACCOUNT_MESSAGES.tooManyResetMails);
    }
    // Only the newest link works.
    await tx
      .delete(verification)
      .where(and(eq(verification.value, found.id), like(verification.identifier, "reset-password:%")));
    await tx.insert(verification).values({
      id: crypto.randomUUID(),
      identifier: resetIdentifier(token),
      value: found.id,
      expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MS),
      createdAt: now,
      updatedAt: now,
    });
    await enqueueMail(
      tx,
      {
        campusId: options.campus.id,
        kind: RESET_MAIL_KIND,
        to: email,
        subject: `Reset your ${options.campus.name} Buy / Sell password`,
        html,
        text,
        expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MS),
      },
      now,
    );
  });
  ctx.wakeMailWorker();
  return { status: "sent", email };
}

/** Whether a reset link's token is still good (the screen says so before asking for a password). */
export async function isPasswordResetTokenValid(ctx: AppContext, token: string): Promise<boolean> {
  if (!token) return false;
  const [row] = await ctx.db
    .select({ id: verification.id })
    .from(verification)
    .where(
      and(eq(verification.identifier, resetIdentifier(token)), gt(verification.expiresAt, ctx.clock.now())),
    )
    .limit(1);
  return Boolean(row);
}

/**
 * Sets a new password from a reset link: better-auth consumes the token, hashes
 * the password and revokes every session; the login lockout of the account is
 * lifted (spec 1 §8: 'You can immediately restore it by resetting your password').
 */
export async function resetPassword(ctx: AppContext, auth: Auth, input: ResetPasswordInput): Promise<void> {
  const { token, password } = parseInput(resetPasswordSchema, input, invalidAccountInput);
  const invalid = () => new AccountError("invalid-token", ACCOUNT_MESSAGES.resetLinkInvalid);
  const [row] = await ctx.db
    .select({ userId: verification.value, email: user.email })
    .from(verification)
    .innerJoin(user, eq(user.id, verification.value))
    .where(
      and(eq(verification.identifier, resetIdentifier(token)), gt(verification.expiresAt, ctx.clock.now())),
    )
    .limit(1);
  if (!row) throw invalid();
  try {
    await auth.api.resetPassword({ body: { token, newPassword: password } });
  } catch (error) {
    if (apiErrorCode(error) === "INVALID_TOKEN") throw invalid();
    throw error;
  }
  await clearAccountLocks(ctx.db, row.email);
}
