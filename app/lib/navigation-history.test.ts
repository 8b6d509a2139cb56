import { describe, expect, it } from "vitest";
import {
  BACK_FALLBACK,
  backStep,
  emptyHistory,
  HISTORY_MAX_ENTRIES,
  HISTORY_TTL_MS,
  isSensitiveSettingsPage,
  isSkippedOnBack,
  type NavigationHistory,
  readHistory,
  recordVisit,
  staticBackTarget,
} from "./navigation-history";

const start = Date.parse("2026-03-02T15:00:00Z");

function visit(paths: string[], at = start): NavigationHistory {
  return paths.reduce((history, path) => recordVisit(history, path, at), emptyHistory(at));
}

describe("navigation memory (spec 1 §2, §9)", () => {
  it("records visits in order, a reload of the same page once", () => {
    expect(visit(["/home", "/search?q=desk", "/search?q=desk", "/post/1"]).entries).toEqual([
      "/home",
      "/search?q=desk",
      "/post/1",
    ]);
  });

  it("keeps a bounded number of entries", () => {
    const many = visit(Array.from({ length: HISTORY_MAX_ENTRIES + 10 }, (_, i) => `/post/${i}`));
    expect(many.entries).toHaveLength(HISTORY_MAX_ENTRIES);
    expect(many.entries.at(-1)).toBe(`/post/${HISTORY_MAX_ENTRIES + 9}`);
  });

  it("forgets the history 24 hours after it began", () => {
    const history = visit(["/home", "/post/1"]);
    const stored = JSON.stringify(history);
    expect(readHistory(stored, start + HISTORY_TTL_MS - 1).entries).toEqual(["/home", "/post/1"]);
    expect(readHistory(stored, start + HISTORY_TTL_MS).entries).toEqual([]);
    const later = recordVisit(history, "/saved", start + HISTORY_TTL_MS + 5);
    expect(later).toEqual({ startedAt: start + HISTORY_TTL_MS + 5, entries: ["/saved"] });
  });

  it("starts afresh from anything unreadable in storage", () => {
    for (const raw of [null, "", "not json", "[]", "42", '{"startedAt":"x","entries":[]}']) {
      expect(readHistory(raw, start)).toEqual(emptyHistory(start));
    }
    const odd = JSON.stringify({
      startedAt: start,
      // docs/product/outages-and-errors.md: nothing a browser would read as another site ('/\t/…' is '//…').
      entries: [
        "/home",
        3,
        "https://evil.example/",
        "//evil.example",
        "/\t/evil.example",
        "/\\evil",
        "/saved",
      ],
    });
    expect(readHistory(odd, start).entries).toEqual(["/home", "/saved"]);
  });

  it("knows which pages back skips: auth, settings, create", () => {
    for (const path of [
      "/login?method=password",
      "/register",
      "/user_registration",
      "/verify",
      "/forgotpassword",
      "/login/sent?email=a@b.edu",
      "/logout",
      "/settings",
      "/settings/about",
      "/settings/account",
      "/settings/account/phone",
      "/create/post?goBack=home",
      "/create/comment/12",
      "/profile/set-up?goBack=home",
    ]) {
      expect(isSkippedOnBack(path), path).toBe(true);
    }
    for (const path of ["/home", "/post/12", "/search?q=desk", "/jamie", "/profile", "/saved", "/messages"]) {
      expect(isSkippedOnBack(path), path).toBe(false);
    }
  });

  it("skips the boost set-up, checkout and payment pages (decision 0465)", () => {
    for (const path of [
      "/post/12/boost",
      "/post/12/boost/success?session_id=cs_test_1",
      "/post/12/boost/cancel?session_id=cs_test_1",
      "/checkout/test/cs_test_1",
    ]) {
      expect(isSkippedOnBack(path), path).toBe(true);
    }
    for (const path of ["/post/12", "/ads", "/ads/0b6f", "/post/boost", "/checkout"]) {
      expect(isSkippedOnBack(path), path).toBe(false);
    }
  });

  it("knows the sensitive account pages", () => {
    expect(isSensitiveSettingsPage("/settings/account/password")).toBe(true);
    expect(isSensitiveSettingsPage("/settings/account/verify_email?email=a@b.edu")).toBe(true);
    expect(isSensitiveSettingsPage("/settings/account")).toBe(false);
    expect(isSensitiveSettingsPage("/settings/about")).toBe(false);
  });
});

describe("going back", () => {
  it("returns to the previous page", () => {
    const step = backStep(visit(["/home", "/post/1", "/jamie"]), "/jamie");
    expect(step.target).toBe("/post/1");
    expect(step.history.entries).toEqual(["/home"]);
  });

  it("skips auth, settings and create pages", () => {
    const history = visit([
      "/post/7",
      "/settings",
      "/settings/about",
      "/login",
      "/create/post",
      "/settings/help",
    ]);
    expect(backStep(history, "/settings/help").target).toBe("/post/7");
  });

  it("never returns into a finished checkout after paying for a boost (decision 0465)", () => {
    const history = visit([
      "/home",
      "/post/9",
      "/post/9/boost",
      "/checkout/test/cs_test_9",
      "/post/9/boost/success?session_id=cs_test_9",
      "/post/9",
    ]);
    expect(backStep(history, "/post/9").target).toBe("/home");
  });

  it("falls back to /home when nothing is left to return to", () => {
    expect(backStep(emptyHistory(start), "/post/1").target).toBe(BACK_FALLBACK);
    expect(backStep(visit(["/login", "/settings/account"]), "/settings/account").target).toBe("/home");
  });

  it("sends the sensitive account pages back to the account overview", () => {
    const history = visit(["/post/3", "/settings/account", "/settings/account/password"]);
    const step = backStep(history, "/settings/account/password");
    expect(step.target).toBe("/settings/account");
    expect(step.history).toEqual(history);
  });

  it("goes further back on each press instead of bouncing between two pages", () => {
    let history = visit(["/home", "/saved", "/post/1", "/jamie"]);
    const targets: string[] = [];
    let current = "/jamie";
    for (let press = 0; press < 4; press++) {
      const step = backStep(history, current);
      targets.push(step.target);
      // Arriving records the page again, as the browser side does.
      history = recordVisit(step.history, step.target, start);
      current = step.target;
    }
    expect(targets).toEqual(["/post/1", "/saved", "/home", "/home"]);
  });

  it("keeps the query of the page it returns to", () => {
    expect(backStep(visit(["/search?q=lamp", "/post/4"]), "/post/4").target).toBe("/search?q=lamp");
  });

  it("links somewhere sensible before the history is read (server render)", () => {
    expect(staticBackTarget("/settings/account/phone")).toBe("/settings/account");
    expect(staticBackTarget("/settings/about")).toBe("/home");
  });
});
