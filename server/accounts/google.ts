import { APIError, getOAuthState } from "better-auth/api";
import type { GenericOAuthConfig, GenericOAuthUserInfo } from "better-auth/plugins/generic-oauth";
import { DEFAULT_CAMPUS_ID, getCampus } from "../campuses/campuses";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { findFreeUsername } from "./accounts";
import { type Auth, GOOGLE_PROVIDER_ID } from "./auth";
import { ACCOUNT_MESSAGES, AccountError, BANNED_AUTH_CODE, RESERVED_AUTH_CODE } from "./errors.shared";
import { namesFromDisplayName, usernameBase } from "./names.shared";

// Google sign-in (spec 1 §1, §4, §5 'Sign-up from Google', §6, §8; decision 0061) through
// better-auth's genericOAuth plugin with OpenID Connect discovery from GOOGLE_ISSUER
// (docs/architecture.md pitfall 8), so tests point it at a local oidc-provider.

export const GOOGLE_SCOPES = ["openid", "email", "profile"];
/** Where a failed Google sign-in lands; its loader shows the error as a danger toast. */
export const GOOGLE_ERROR_PATH = "/user_registration";
/** Where a signed-in (or newly signed-up) Google user lands. */
export const GOOGLE_SUCCESS_PATH = "/home";

/** spec 1 §8 'Google sign-in', character for character. */
export const GOOGLE_MESSAGES = {
  networkError: "Network error. Please check your connection",
  canceled: "Error: Sign-in process was canceled",
  accountExists: "Error: Account already exists with different credentials",
  invalidCredential: "Error: Invalid credentials",
  userNotFound: "Error: User email not found",
  unknown: "Unknown Error Signing In with Google",
  afterSignIn: "Error Signing In with Google.",
  banned: ACCOUNT_MESSAGES.banned,
} as const;

/**
 * The `error` codes a Google sign-in can come back with, mapped onto spec 1 §8. The
 * provider's own codes (RFC 6749 §4.1.2.1) other than access_denied are 'Unknown Error
 * Signing In with Google'; better-auth's failures after the provider said yes are 'Error
 * Signing In with Google.' (the spec's post-sign-in failure).
 */
const ERROR_MESSAGES: Record<string, string> = {
  // The student pressed Cancel (or closed the consent screen).
  access_denied: GOOGLE_MESSAGES.canceled,
  // An account with this e-mail exists and better-auth may not link Google to it
  // (its e-mail is not verified, or Google's is not).
  account_not_linked: GOOGLE_MESSAGES.accountExists,
  account_already_linked_to_different_user: GOOGLE_MESSAGES.accountExists,
  // The code, the state or the ID token did not check out (expired, replayed, forged).
  invalid_code: GOOGLE_MESSAGES.invalidCredential,
  invalid_grant: GOOGLE_MESSAGES.invalidCredential,
  state_mismatch: GOOGLE_MESSAGES.invalidCredential,
  state_not_found: GOOGLE_MESSAGES.invalidCredential,
  state_invalid: GOOGLE_MESSAGES.invalidCredential,
  issuer_mismatch: GOOGLE_MESSAGES.invalidCredential,
  issuer_missing: GOOGLE_MESSAGES.invalidCredential,
  nonce_binding_missing: GOOGLE_MESSAGES.invalidCredential,
  unable_to_get_user_info: GOOGLE_MESSAGES.invalidCredential,
  // The provider answered without an e-mail address.
  email_not_found: GOOGLE_MESSAGES.userNotFound,
  // The provider could not be reached at start and still cannot (discovery is retried per request).
  oauth_provider_not_found: GOOGLE_MESSAGES.networkError,
  // spec 1 §6: banned accounts cannot sign in with Google (our session hook refuses them).
  [BANNED_AUTH_CODE]: GOOGLE_MESSAGES.banned,
  // Decision 0573: the address is a deleted account's, reserved for 30 days (our account hook),
  // answered as better-auth answers any account it may not link Google to.
  [RESERVED_AUTH_CODE]: GOOGLE_MESSAGES.accountExists,
  // After the provider said yes: our side failed to create or update the account or session.
  unable_to_create_user: GOOGLE_MESSAGES.afterSignIn,
  unable_to_create_session: GOOGLE_MESSAGES.afterSignIn,
  unable_to_link_account: GOOGLE_MESSAGES.afterSignIn,
  unable_to_update_account: GOOGLE_MESSAGES.afterSignIn,
  internal_server_error: GOOGLE_MESSAGES.afterSignIn,
  no_callback_url: GOOGLE_MESSAGES.afterSignIn,
  no_code: GOOGLE_MESSAGES.afterSignIn,
  invalid_callback_request: GOOGLE_MESSAGES.afterSignIn,
  state_generation_error: GOOGLE_MESSAGES.afterSignIn,
};

/** The spec 1 §8 message for the `error` a Google sign-in came back with. */
export function googleErrorMessage(code: string): string {
  return Object.hasOwn(ERROR_MESSAGES, code)
    ? (ERROR_MESSAGES[code] ?? GOOGLE_MESSAGES.unknown)
    : GOOGLE_MESSAGES.unknown;
}

/** The OAuth flow's state (during the callback), or null outside one. */
async function currentOAuthState(): Promise<Record<string, unknown> | null> {
  try {
    const state: unknown = await getOAuthState();
    return state && typeof state === "object" ? (state as Record<string, unknown>) : null;
  } catch {
    // Not inside a better-auth request.
    return null;
  }
}

/** Whether a user being created comes from the Google callback (spec 1 §4: verified true at Google sign-up). */
export async function isGoogleSignUp(): Promise<boolean> {
  return (await currentOAuthState()) !== null;
}

/**
 * The campus a Google sign-up joins: the one whose site started the sign-in (carried in
 * the OAuth state by startGoogleSignIn), else the default campus.
 */
async function campusOfFlow(db: Queryable): Promise<string> {
  const campusId = (await currentOAuthState())?.campusId;
  if (typeof campusId === "string" && (await getCampus(db, campusId))) return campusId;
  return DEFAULT_CAMPUS_ID;
}

/**
 * Our user columns for a Google profile (spec 1 §3, §5 'Sign-up from Google'): names from
 * the display name, a free username, the campus of the site. Google's picture is not kept:
 * the profile photo goes through our own pipeline (decision 0061).
 */
export async function googleUserFields(db: Queryable, displayName: unknown, campusId: string) {
  const { firstName, lastName } = namesFromDisplayName(typeof displayName === "string" ? displayName : null);
  const username = await findFreeUsername(db, usernameBase(firstName, lastName));
  return { name: `${firstName} ${lastName}`, firstName, lastName, username, campusId, image: undefined };
}

/** The genericOAuth provider for Google, or null when GOOGLE_CLIENT_ID is not set (docs/contract.md). */
export function googleProviderConfig(ctx: AppContext): GenericOAuthConfig | null {
  const { googleClientId, googleClientSecret, googleIssuer } = ctx.config;
  if (!googleClientId) return null;
  return {
    providerId: GOOGLE_PROVIDER_ID,
    name: "Google",
    discoveryUrl: `${googleIssuer}/.well-known/openid-configuration`,
    clientId: googleClientId,
    clientSecret: googleClientSecret ?? undefined,
    scopes: GOOGLE_SCOPES,
    pkce: true,
    // Runs before better-auth's user transaction, so it may query the database.
    mapProfileToUser: async (profile: GenericOAuthUserInfo) =>
      googleUserFields(ctx.db, profile.name, await campusOfFlow(ctx.db)),
  };
}

function signInSocial(auth: Auth, options: { campusId: string; headers: Headers }) {
  return auth.api.signInSocial({
    body: {
      provider: GOOGLE_PROVIDER_ID,
      callbackURL: GOOGLE_SUCCESS_PATH,
      newUserCallbackURL: GOOGLE_SUCCESS_PATH,
      errorCallbackURL: GOOGLE_ERROR_PATH,
      additionalData: { campusId: options.campusId },
    },
    headers: options.headers,
    returnHeaders: true,
  });
}

/**
 * Starts a Google sign-in (spec 1 §2 'Continue with Google'): the provider's URL to send
 * the browser to, and the state cookie to set on the way. Only our server calls this
 * better-auth endpoint, so the campus it puts in the state can be trusted on return.
 */
export async function startGoogleSignIn(
  ctx: AppContext,
  auth: Auth,
  options: { campusId: string; headers: Headers },
): Promise<{ url: string; headers: Headers }> {
  if (!ctx.config.googleClientId) throw new Error("startGoogleSignIn: GOOGLE_CLIENT_ID is not set");
  let result: Awaited<ReturnType<typeof signInSocial>>;
  try {
    result = await signInSocial(auth, options);
  } catch (error) {
    // The provider is registered only once its discovery document could be fetched (retried here).
    if (error instanceof APIError && error.body?.code === "PROVIDER_NOT_FOUND") {
      throw new AccountError("google-unavailable", GOOGLE_MESSAGES.networkError);
    }
    throw error;
  }
  if (!result.response.url) throw new Error("startGoogleSignIn: better-auth returned no provider URL");
  const headers = new Headers();
  for (const cookie of result.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  return { url: result.response.url, headers };
}
