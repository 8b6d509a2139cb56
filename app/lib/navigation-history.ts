/**
 * Navigation memory (spec 1 §2 'Shell and layout', §9): the paths a visitor
 * went through, kept in localStorage for 24 hours, so a back button can return
 * to the last page that makes sense to return to. Going back skips auth,
 * settings and create pages (and falls back to /home); the sensitive account
 * pages go back to /settings/account. The pure rules are here; the browser
 * side (recording, the button) is at the bottom. Boost and checkout pages are
 * skipped like create pages (decision 0465).
 */

import { localPath } from "./local-path";

export const HISTORY_STORAGE_KEY = "cbs:navigation-history";
/** spec 1 §9: 'Navigation history expires after 24 hours.' */
export const HISTORY_TTL_MS = 24 * 60 * 60 * 1000;
/** Enough to walk back past any run of settings or auth pages. */
export const HISTORY_MAX_ENTRIES = 50;
export const BACK_FALLBACK = "/home";
export const ACCOUNT_SETTINGS = "/settings/account";

export interface NavigationHistory {
  /** When this history began (ms); it is dropped 24 hours later. */
  startedAt: number;
  /** Visited paths with their query, oldest first. */
  entries: string[];
}

export function emptyHistory(now: number): NavigationHistory {
  return { startedAt: now, entries: [] };
}

function pathnameOf(entry: string): string {
  const end = entry.search(/[?#]/);
  const pathname = end < 0 ? entry : entry.slice(0, end);
  return pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
}

const authPages = new Set([
  "/user_registration",
  "/login",
  "/login/sent",
  "/register",
  "/verify",
  "/forgotpassword",
  "/reset-password",
  "/logout",
]);

/**
 * The boost set-up and its payment pages: /post/{id}/boost, its success and cancel
 * return pages (spec 2 §2) and the built-in test checkout (decision 0270). Decision 0465:
 * after paying, 'back' must not reopen a finished checkout (decision 0465).
 */
const boostFlowPath = /^\/post\/[^/]+\/boost(\/(success|cancel))?$|^\/checkout\/test\/[^/]+$/;

/**
 * Pages 'back' never returns to: auth screens, settings, the create flows, the
 * boost and checkout pages and the profile wizard (a finished form is not a
 * place to return to), and the 404 page.
 */
export function isSkippedOnBack(entry: string): boolean {
  const path = pathnameOf(entry);
  return (
    authPages.has(path) ||
    path === "/settings" ||
    path.startsWith("/settings/") ||
    path === "/create" ||
    path.startsWith("/create/") ||
    path === "/messages/new" ||
    path === "/profile/set-up" ||
    boostFlowPath.test(path) ||
    path === "/404"
  );
}

/** The account sub-pages (username, password, e-mail, school e-mail…): their back is the account overview. */
export function isSensitiveSettingsPage(entry: string): boolean {
  return pathnameOf(entry).startsWith(`${ACCOUNT_SETTINGS}/`);
}

/** Parses what localStorage held; anything unreadable, or older than 24 hours, starts afresh. */
export function readHistory(raw: string | null, now: number): NavigationHistory {
  if (!raw) return emptyHistory(now);
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== "object" || value === null) return emptyHistory(now);
    const { startedAt, entries } = value as { startedAt?: unknown; entries?: unknown };
    if (typeof startedAt !== "number" || !Array.isArray(entries)) return emptyHistory(now);
    if (now - startedAt >= HISTORY_TTL_MS || startedAt > now) return emptyHistory(now);
    return {
      startedAt,
      entries: entries
        .filter((entry): entry is string => localPath(entry) !== null)
        .slice(-HISTORY_MAX_ENTRIES),
    };
  } catch {
    return emptyHistory(now);
  }
}

/** Records a visit; a reload (the same path again) is not a new entry. */
export function recordVisit(history: NavigationHistory, entry: string, now: number): NavigationHistory {
  const current = now - history.startedAt >= HISTORY_TTL_MS ? emptyHistory(now) : history;
  if (current.entries.at(-1) === entry) return current;
  return { startedAt: current.startedAt, entries: [...current.entries, entry].slice(-HISTORY_MAX_ENTRIES) };
}

export interface BackStep {
  /** Where to go. */
  target: string;
  /** The history to keep: everything before the target, which is recorded again on arrival. */
  history: NavigationHistory;
}

/**
 * Where 'back' leads from `current`: the account overview from a sensitive
 * account page; otherwise the latest earlier page that is not skipped, or
 * /home. The entries from that page on are dropped, so pressing back again
 * goes further back instead of returning to where we came from.
 */
export function backStep(history: NavigationHistory, current: string): BackStep {
  if (isSensitiveSettingsPage(current)) {
    return { target: ACCOUNT_SETTINGS, history };
  }
  const entries = [...history.entries];
  // The current page is the newest entry (it was recorded on arrival).
  if (entries.at(-1) === current) entries.pop();
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i] ?? "";
    if (isSkippedOnBack(entry) || entry === current) continue;
    return { target: entry, history: { startedAt: history.startedAt, entries: entries.slice(0, i) } };
  }
  return { target: BACK_FALLBACK, history: { startedAt: history.startedAt, entries: [] } };
}

/** What a back link points at before any history is known (server render, no JavaScript). */
export function staticBackTarget(current: string): string {
  return isSensitiveSettingsPage(current) ? ACCOUNT_SETTINGS : BACK_FALLBACK;
}

// Browser side.

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    // Storage can be disabled (privacy modes); the back button then falls back to /home.
    return null;
  }
}

export function loadHistory(now = Date.now()): NavigationHistory {
  return readHistory(storage()?.getItem(HISTORY_STORAGE_KEY) ?? null, now);
}

export function saveHistory(history: NavigationHistory): void {
  try {
    storage()?.setItem(HISTORY_STORAGE_KEY, JSON.stringify(history));
  } catch {
    // Full or disabled storage: forgetting the history is harmless.
  }
}
