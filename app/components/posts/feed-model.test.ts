import { describe, expect, test } from "vitest";
import { feedItemKey } from "~/server/ads/sponsored.shared";
import { appendPage, differsOnlyIn, isSaveToggle, LOAD_MORE_LOCK_MS, loadMoreDecision } from "./feed-model";

describe("appendPage", () => {
  test("adds the next page, skipping posts already shown", () => {
    const shown = [{ id: "a" }, { id: "b" }];
    expect(appendPage(shown, [{ id: "b" }, { id: "c" }])).toEqual([{ id: "a" }, { id: "b" }, { id: "c" }]);
  });

  test("keeps a sponsored post beside the same post shown as a post (decision 0274)", () => {
    const sponsored = {
      id: "a",
      sponsored: { adId: "x", slot: 0, cta: { type: "message" as const, label: "Send Message", url: null } },
    };
    const next = appendPage<{ id: string; sponsored?: typeof sponsored.sponsored }>(
      [{ id: "a" }],
      [sponsored],
      feedItemKey,
    );
    expect(next).toHaveLength(2);
  });
});

describe("loadMoreDecision (spec 2 §4: load-more is locked for 1 second after each load)", () => {
  const now = 10_000;
  test("loads when there is a next page, nothing is loading and the lock is over", () => {
    expect(loadMoreDecision({ cursor: "c", busy: false, lockedUntil: now }, now)).toEqual({
      load: true,
      waitMs: 0,
    });
  });

  test("waits out the lock after a load", () => {
    expect(LOAD_MORE_LOCK_MS).toBe(1000);
    const lockedUntil = now + LOAD_MORE_LOCK_MS;
    expect(loadMoreDecision({ cursor: "c", busy: false, lockedUntil }, now + 400)).toEqual({
      load: false,
      waitMs: 600,
    });
  });

  test("never at the end of the list or while a page is on its way", () => {
    expect(loadMoreDecision({ cursor: null, busy: false, lockedUntil: 0 }, now).load).toBe(false);
    expect(loadMoreDecision({ cursor: "c", busy: true, lockedUntil: 0 }, now).load).toBe(false);
  });
});

test("isSaveToggle recognises the Save / Saved! form", () => {
  const form = new FormData();
  form.set("intent", "toggle-save");
  expect(isSaveToggle(form)).toBe(true);
  expect(isSaveToggle(undefined)).toBe(false);
  form.set("intent", "delete-post");
  expect(isSaveToggle(form)).toBe(false);
});

test("differsOnlyIn tells when only one query value changed", () => {
  const url = (path: string) => new URL(path, "http://ou.localhost");
  expect(differsOnlyIn(url("/home?filter=notify-posted"), url("/home"), "filter")).toBe(true);
  expect(
    differsOnlyIn(url("/home?filter=notify-posted&category=drones"), url("/home?category=drones"), "filter"),
  ).toBe(true);
  expect(differsOnlyIn(url("/home?filter=notify-posted"), url("/home?category=drones"), "filter")).toBe(
    false,
  );
  expect(differsOnlyIn(url("/home"), url("/home"), "filter")).toBe(false);
  expect(differsOnlyIn(url("/home?filter=x"), url("/saved"), "filter")).toBe(false);
});
