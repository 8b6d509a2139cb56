import { systemClock } from "../clock";

/**
 * Which user a session cookie belongs to, remembered for a few seconds per token (decision 0350,
 * decision 0350). better-auth's getSession builds a whole endpoint context and reads the session
 * row on every call, which a signed-in page pays once per request; within the window this process
 * answers from memory instead.
 *
 * Revocation: a session better-auth deletes in this process (sign-out, a password reset, 'sign out
 * other devices') is forgotten at once, by the session delete hook in createAuth. One deleted by
 * another process, or a session that ends on its own, is believed for at most the window. The
 * user row (a ban) is still read on every request (server/accounts/viewer.ts).
 */

/** How long one lookup is believed (decision 0350). */
export const SESSION_LOOKUP_WINDOW_MS = 5_000;
/** Bounded memory: past this many tokens the oldest are dropped (a visitor sending made-up cookies costs nothing here: only valid sessions are stored). */
export const SESSION_LOOKUP_MAX_ENTRIES = 10_000;

interface Entry {
  /** The whole signed cookie value: a cookie with the same token but another signature never matches. */
  cookieValue: string;
  userId: string;
  /** Believed until then: the window, or the session's own expiry if sooner (ms since the epoch). */
  until: number;
}

export interface SessionLookupCache {
  /** The user of a signed cookie value, if a lookup within the window found it. */
  get(cookieValue: string): string | null;
  /** Remembers a lookup of `cookieValue` that found `userId`'s session, valid until `expiresAt`. */
  remember(cookieValue: string, userId: string, expiresAt: Date): void;
  /** A session ended (its token, as better-auth stores it): its cookie no longer counts. */
  forget(token: string): void;
}

/** better-auth's session cookie is `{token}.{signature}`; the token is what the session row holds. */
function tokenOf(cookieValue: string): string {
  const dot = cookieValue.lastIndexOf(".");
  return dot > 0 ? cookieValue.slice(0, dot) : cookieValue;
}

export function createSessionLookupCache({
  windowMs = SESSION_LOOKUP_WINDOW_MS,
  maxEntries = SESSION_LOOKUP_MAX_ENTRIES,
  now = () => systemClock.now().getTime(),
}: {
  windowMs?: number;
  maxEntries?: number;
  now?: () => number;
} = {}): SessionLookupCache {
  const entries = new Map<string, Entry>();
  return {
    get(cookieValue) {
      const token = tokenOf(cookieValue);
      const entry = entries.get(token);
      if (!entry) return null;
      if (entry.until <= now()) {
        entries.delete(token);
        return null;
      }
      return entry.cookieValue === cookieValue ? entry.userId : null;
    },
    remember(cookieValue, userId, expiresAt) {
      if (windowMs <= 0) return;
      const token = tokenOf(cookieValue);
      entries.delete(token);
      while (entries.size >= maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        entries.delete(oldest);
      }
      entries.set(token, { cookieValue, userId, until: Math.min(now() + windowMs, expiresAt.getTime()) });
    },
    forget(token) {
      entries.delete(token);
    },
  };
}
