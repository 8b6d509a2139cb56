import { createHash } from "node:crypto";
import { APIError } from "better-auth/api";
import { generateRandomString } from "better-auth/crypto";
import { and, eq, gt, sql } from "drizzle-orm";
import { createElement } from "react";
import { z } from "zod";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { user, verification } from "../db/schema";
import { countMailSince, enqueueMail } from "../mail/outbox";
import { renderMail } from "../mail/render";
import { MagicLinkEmail } from "../mail/templates/magic-link";
import { getClaimEmail } from "../profiles/profiles";
import { syncConfiguredAdminOf } from "../staff/configured-admins";
import { parseInput } from "../validation";
import { findFreeUsername, type SignedIn, takeSignUpAttempt } from "./accounts";
import type { Auth } from "./auth";
import { ACCOUNT_MESSAGES, AccountError, BANNED_AUTH_CODE, invalidAccountInput } from "./errors.shared";
import { fullNameProblem, normaliseNames, splitFullName, usernameBase } from "./names.shared";
import {
  type RegisterByLinkInput,
  registerByLinkSchema,
  type SendLinkInput,
  sendLinkSchema,
} from "./schemas.shared";

// Passwordless sign-in and sign-up by e-mail link (spec 1 §4 'Magic link', §7, §8; decision 0060),
// on better-auth's magicLink plugin: the plugin mints and consumes the tokens and opens the
// session; these functions apply the spec's rules around it and mail the link through our outbox.

export const MAGIC_LINK_MAIL_KIND = "magic-link";
/** A link works once, for one hour (like a reset link, decision 0021); the mail may take 1 to 2 minutes. */
export const MAGIC_LINK_TTL_MS = 60 * 60 * 1000;
/** At most this many link mails per address per hour, like codes (decision 0021). */
export const MAX_MAGIC_LINK_MAILS_PER_HOUR = 3;
/** The page the mailed link opens (spec 1 §7: continue url /login/sent with email, first, last). */
export const MAGIC_LINK_PATH = "/login/sent";
const HOUR_MS = 60 * 60 * 1000;

/**
 * What a request hands the plugin's sendMagicLink callback through `metadata`. Only our
 * server calls the plugin's endpoint (it is not in PUBLIC_AUTH_PATHS), so it is trusted.
 */
const linkMetadataSchema = z.object({
  campusId: z.string().min(1),
  campusName: z.string().min(1),
  campusOrigin: z.url(),
  first: z.string().min(1).optional(),
  last: z.string().min(1).optional(),
});
export type MagicLinkMetadata = z.infer<typeof linkMetadataSchema>;

/** The token record better-auth keeps in `verification` (value is JSON). */
const linkRecordSchema = z.object({
  type: z.literal("magic-link"),
  email: z.string(),
  name: z.string().optional(),
});

/** better-auth stores the SHA-256 of the token (the plugin's `storeToken: "hashed"`), base64url without padding. */
function magicLinkIdentifier(token: string): string {
  return `magic-link:${createHash("sha256").update(token).digest("base64url")}`;
}

/** The link in the mail: the campus's own site, so the session cookie is set where the student uses it. */
export function magicLinkUrl(
  campusOrigin: string,
  params: { email: string; token: string; first?: string | null; last?: string | null },
): string {
  const url = new URL(MAGIC_LINK_PATH, campusOrigin);
  url.searchParams.set("email", params.email);
  if (params.first && params.last) {
    url.searchParams.set("first", params.first);
    url.searchParams.set("last", params.last);
  }
  url.searchParams.set("token", params.token);
  return url.toString();
}

async function findAccount(db: Queryable, email: string) {
  const [row] = await db
    .select({ id: user.id, banned: user.banned, deleted: sql<boolean>`${user.deletedAt} is not null` })
    .from(user)
    .where(eq(user.email, email))
    .limit(1);
  return row ?? null;
}

async function linkMailsLastHour(db: Queryable, email: string, now: Date): Promise<number> {
  return countMailSince(db, email, [MAGIC_LINK_MAIL_KIND], new Date(now.getTime() - HOUR_MS));
}

function tooManyLinks(): AccountError {
  return new AccountError("too-many-mails", ACCOUNT_MESSAGES.tooManyMagicLinks);
}

/**
 * The plugin's `sendMagicLink` callback (server/accounts/auth.ts): renders the mail and
 * queues it in the outbox, at most 3 an hour per address, then wakes the mail worker.
 */
export async function queueMagicLinkMail(
  ctx: AppContext,
  data: { email: string; token: string; metadata?: Record<string, unknown> },
): Promise<void> {
  const meta = linkMetadataSchema.parse(data.metadata);
  const email = data.email.toLowerCase();
  const now = ctx.clock.now();
  const registering = Boolean(meta.first && meta.last);
  const url = magicLinkUrl(meta.campusOrigin, {
    email,
    token: data.token,
    first: meta.first,
    last: meta.last,
  });
  const { html, text } = await renderMail(
    createElement(MagicLinkEmail, { url, campusName: meta.campusName, registering }),
  );
  await ctx.db.transaction(async (tx) => {
    // One request at a time per address, so two cannot both pass the hourly cap. There may be
    // no user row to lock yet (sign-up by link), so the lock is on the address itself.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`magic-link:${email}`}))`);
    if ((await linkMailsLastHour(tx, email, now)) >= MAX_MAGIC_LINK_MAILS_PER_HOUR) throw tooManyLinks();
    await enqueueMail(
      tx,
      {
        campusId: meta.campusId,
        kind: MAGIC_LINK_MAIL_KIND,
        to: email,
        subject: registering
          ? `Finish signing up for ${meta.campusName} Buy / Sell`
          : `Your ${meta.campusName} Buy / Sell sign-in link`,
        html,
        text,
        // Worthless once the link has expired.
        expiresAt: new Date(now.getTime() + MAGIC_LINK_TTL_MS),
      },
      now,
    );
  });
  ctx.wakeMailWorker();
}

export interface MagicLinkRequestOptions {
  /** The community the request came to: the mail speaks for it and links to its site. */
  campus: { id: string; name: string };
  campusOrigin: string;
  headers: Headers;
}

/** Where /login/sent is told about the link (spec 1 §2: email, and first and last when registering). */
export interface MagicLinkSent {
  email: string;
  first: string | null;
  last: string | null;
}

async function sendLink(
  ctx: AppContext,
  auth: Auth,
  link: MagicLinkSent,
  options: MagicLinkRequestOptions,
): Promise<MagicLinkSent> {
  // Checked here too so that a refused request does not even mint a token.
  if ((await linkMailsLastHour(ctx.db, link.email, ctx.clock.now())) >= MAX_MAGIC_LINK_MAILS_PER_HOUR) {
    throw tooManyLinks();
  }
  const metadata: MagicLinkMetadata = {
    campusId: options.campus.id,
    campusName: options.campus.name,
    campusOrigin: options.campusOrigin,
    ...(link.first && link.last ? { first: link.first, last: link.last } : {}),
  };
  await auth.api.signInMagicLink({
    body: {
      email: link.email,
      // Kept in the token record: the names the account is created with when the link is opened.
      name: link.first && link.last ? `${link.first} ${link.last}` : undefined,
      metadata,
    },
    headers: options.headers,
  });
  return link;
}

/**
 * spec 1 §2 /login?method=noPassword: mails a sign-in link to an existing account.
 * Unknown addresses get the login's 'Incorrect. Please try again.'; banned ones
 * 'Account has been banned' (spec 1 §6).
 */
export async function requestSignInLink(
  ctx: AppContext,
  auth: Auth,
  input: SendLinkInput,
  options: MagicLinkRequestOptions,
): Promise<MagicLinkSent> {
  const { email } = parseInput(sendLinkSchema, input, invalidAccountInput);
  const found = await findAccount(ctx.db, email);
  // Decision 0571: a deleted account is no account to sign in to.
  if (!found || found.deleted) throw new AccountError("user-not-found", ACCOUNT_MESSAGES.userNotFound);
  if (found.banned) throw new AccountError("banned", ACCOUNT_MESSAGES.banned);
  return sendLink(ctx, auth, { email, first: null, last: null }, options);
}

/**
 * spec 2 §2 'Claim this account' (unverified profiles): a sign-in link mailed to the
 * account's own address, asked for by anyone who opens the profile. The address never
 * leaves the server (decision 0126): the answer names the profile only, and the
 * link signs in whoever reads that mailbox, which is what claiming means. Verified, banned
 * and unknown profiles get one message, so the answer tells nothing more than the profile
 * page does; the 3 link mails an hour per address keep the mailbox from being flooded.
 */
export async function requestClaimLink(
  ctx: AppContext,
  auth: Auth,
  username: string,
  options: MagicLinkRequestOptions,
): Promise<{ username: string }> {
  const email = await getClaimEmail(ctx, username);
  if (!email) throw new AccountError("not-claimable", ACCOUNT_MESSAGES.notClaimable);
  await sendLink(ctx, auth, { email, first: null, last: null }, options);
  return { username: username.trim().toLowerCase() };
}

/**
 * Sign-up by e-mail link (spec 1 §4 'Magic link'): the register form's rules without a
 * password; the link carries the first and last name and creates the account when opened.
 */
export async function requestSignUpLink(
  ctx: AppContext,
  auth: Auth,
  input: RegisterByLinkInput,
  options: MagicLinkRequestOptions & { clientIp: string | null },
): Promise<MagicLinkSent> {
  const { fullName, email } = parseInput(registerByLinkSchema, input, invalidAccountInput);
  const found = await findAccount(ctx.db, email);
  // spec 1 §6: a banned address cannot come back as a new account.
  if (found?.banned) throw new AccountError("banned", ACCOUNT_MESSAGES.banned);
  if (found) throw new AccountError("email-taken", ACCOUNT_MESSAGES.emailTaken, "email");
  const parts = splitFullName(fullName);
  if (!parts) throw new AccountError("invalid-input", ACCOUNT_MESSAGES.somethingWentWrong, "fullName");
  // The same count as password sign-ups (decision 0127): each link may become an account.
  await takeSignUpAttempt(ctx, options.clientIp);
  return sendLink(ctx, auth, { email, first: parts.first, last: parts.last }, options);
}

export interface MagicLinkSignIn extends SignedIn {
  /** True when opening the link created the account. */
  registered: boolean;
}

/**
 * The account a sign-up link creates (spec 1 §3, §4, §5): names normalised, a free
 * username, the campus of the site the link was opened on, and `verified` true because
 * opening the link proves the address (decision 0060).
 */
async function createAccountFromLink(
  ctx: AppContext,
  input: { email: string; fullName: string; campusId: string },
): Promise<string | null> {
  if (fullNameProblem(input.fullName)) return null;
  const { firstName, lastName } = normaliseNames(input.fullName);
  const base = usernameBase(firstName, lastName);
  for (let attempt = 1; ; attempt++) {
    const now = ctx.clock.now();
    const username = await findFreeUsername(ctx.db, base);
    try {
      const [created] = await ctx.db
        .insert(user)
        .values({
          id: generateRandomString(32, "a-z", "A-Z", "0-9"),
          name: `${firstName} ${lastName}`,
          email: input.email,
          verified: true,
          firstName,
          lastName,
          username,
          campusId: input.campusId,
          createdAt: now,
          updatedAt: now,
        })
        // Another tab opened a link for the same address first: that account is signed in.
        .onConflictDoNothing({ target: user.email })
        .returning({ id: user.id });
      return created?.id ?? (await findAccount(ctx.db, input.email))?.id ?? null;
    } catch (error) {
      // Two sign-ups picked the same free username at once: take the next suffix.
      if (isUniqueViolation(error, "user_username_unique") && attempt < 3) continue;
      throw error;
    }
  }
}

function apiErrorCode(error: APIError): string | undefined {
  const code: unknown = error.body?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * Opening the mailed link (spec 1 §4 'Magic link'): the token must be live and minted
 * for this e-mail. With a name in the token (a sign-up link) and no account yet, the
 * account is created; then better-auth consumes the token (once) and opens the session.
 * Anything wrong with the link answers 'Failed: Wrong Email.'; a banned account
 * 'Account has been banned' (spec 1 §6).
 */
export async function completeMagicLink(
  ctx: AppContext,
  auth: Auth,
  input: { token: string; email: string },
  options: { campusId: string; headers: Headers },
): Promise<MagicLinkSignIn> {
  const invalid = () => new AccountError("invalid-token", ACCOUNT_MESSAGES.magicLinkFailed);
  const email = input.email.trim().toLowerCase();
  if (!input.token || !email) throw invalid();

  const [row] = await ctx.db
    .select({ value: verification.value })
    .from(verification)
    .where(
      and(
        eq(verification.identifier, magicLinkIdentifier(input.token)),
        gt(verification.expiresAt, ctx.clock.now()),
      ),
    )
    .limit(1);
  let record: z.infer<typeof linkRecordSchema> | null = null;
  try {
    const parsed = linkRecordSchema.safeParse(row ? JSON.parse(row.value) : null);
    record = parsed.success ? parsed.data : null;
  } catch {
    record = null;
  }
  // spec 1 §2 'Failed: Wrong Email.': the link was minted for another address.
  if (!record || record.email.toLowerCase() !== email) throw invalid();

  const found = await findAccount(ctx.db, email);
  if (found?.banned) throw new AccountError("banned", ACCOUNT_MESSAGES.banned);
  let registered = false;
  if (!found) {
    if (!record.name) throw invalid();
    const createdId = await createAccountFromLink(ctx, {
      email,
      fullName: record.name,
      campusId: options.campusId,
    });
    if (!createdId) throw invalid();
    registered = true;
  }

  try {
    const result = await auth.api.magicLinkVerify({
      query: { token: input.token },
      headers: options.headers,
      returnHeaders: true,
    });
    // Decision 0522: opening the link proves the address, which may be in ADMIN_EMAILS.
    await syncConfiguredAdminOf(ctx, ctx.db, result.response.user.id);
    return { userId: result.response.user.id, verified: true, headers: result.headers, registered };
  } catch (error) {
    if (!(error instanceof APIError)) throw error;
    // The session hook refuses banned accounts (server/accounts/auth.ts).
    if (apiErrorCode(error) === BANNED_AUTH_CODE) throw new AccountError("banned", ACCOUNT_MESSAGES.banned);
    // The plugin answers a used or expired token with a redirect to its error URL.
    throw invalid();
  }
}
