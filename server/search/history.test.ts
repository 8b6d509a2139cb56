import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, createTestPost, type TestMember } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import {
  clearSearchHistory,
  listPopularSearches,
  listRecentSearches,
  recordSearch,
  removeRecentSearch,
} from "./history";
import { searchPeople } from "./people";
import { searchPosts } from "./posts";
import { getSearchSuggestions } from "./suggestions";

let t: TestContext;
let seller: TestMember;
let buyer: TestMember;

beforeAll(async () => {
  t = await createTestContext({ postLimits: { perMinute: 0, perDay: 0 } });
  seller = await createTestMember(t, { fullName: "Sally Fridgeworth" });
  buyer = await createTestMember(t, { fullName: "Bob Buyer" });
  await createTestMember(t, { fullName: "Uma Texan", campusId: "ut" });
  // The completions below come from the campus's words: a post holding 'mini fridge'.
  await createTestPost(t, seller.viewer, { text: "Mini fridge, barely used, pick up at Walker dorm" });
});
afterAll(() => t.close());

describe("history and popular searches", () => {
  it("keeps a person's recent searches, removes one and clears all", async () => {
    const me = await createTestMember(t, { fullName: "Hana History" });
    await recordSearch(t.ctx, me.viewer, { campusId: "ou", text: "desk lamp" });
    t.clock.advance(1000);
    await recordSearch(t.ctx, me.viewer, { campusId: "ou", text: "Mini  Fridge" });
    t.clock.advance(1000);
    await recordSearch(t.ctx, me.viewer, { campusId: "ou", text: "desk LAMP" });
    const recent = await listRecentSearches(t.ctx, me.viewer, { campusId: "ou" });
    expect(recent.map((r) => r.text)).toEqual(["desk LAMP", "Mini Fridge"]);
    // Visitors and other campuses leave nothing.
    expect(await recordSearch(t.ctx, null, { campusId: "ou", text: "visitor" })).toBe(false);
    expect(await recordSearch(t.ctx, me.viewer, { campusId: "ut", text: "elsewhere" })).toBe(false);
    await removeRecentSearch(t.ctx, me.viewer, { campusId: "ou", text: "mini fridge" });
    expect((await listRecentSearches(t.ctx, me.viewer, { campusId: "ou" })).map((r) => r.text)).toEqual([
      "desk LAMP",
    ]);
    await clearSearchHistory(t.ctx, me.viewer, { campusId: "ou" });
    expect(await listRecentSearches(t.ctx, me.viewer, { campusId: "ou" })).toEqual([]);
  });

  it("reads control characters in a search as spaces: a NUL typed into the address is stored, searched and suggested as a space", async () => {
    const me = await createTestMember(t, { fullName: "Nul Searcher" });
    await recordSearch(t.ctx, me.viewer, { campusId: "ou", text: "desk\u0000lamp\u0007" });
    expect((await listRecentSearches(t.ctx, me.viewer, { campusId: "ou" })).map((r) => r.text)).toEqual([
      "desk lamp",
    ]);
    // Each answers (it threw: PostgreSQL stores no NUL in text).
    expect(
      (await searchPosts(t.ctx, me.viewer, { campusId: "ou", q: "fridge\u0000", show: "latest" })).items,
    ).toBeDefined();
    expect(await searchPeople(t.ctx, me.viewer, { campusId: "ou", text: "\u0000nul" })).toBeDefined();
    expect(
      (await getSearchSuggestions(t.ctx, me.viewer, { campusId: "ou", text: "desk\u0000" })).recent.map(
        (r) => r.text,
      ),
    ).toEqual(["desk lamp"]);
  });

  it("lists as popular only texts 3 different people searched, most people first, at most 14", async () => {
    const people: TestMember[] = [];
    for (let i = 0; i < 5; i++)
      people.push(await createTestMember(t, { fullName: `Popular Person${"abcde"[i]}` }));
    // One person searching a text many times never makes it popular.
    for (let i = 0; i < 10; i++)
      await recordSearch(t.ctx, people[0]?.viewer ?? null, { campusId: "ou", text: "555 123 4567" });
    for (const p of people.slice(0, 3)) await recordSearch(t.ctx, p.viewer, { campusId: "ou", text: "bike" });
    for (const p of people) await recordSearch(t.ctx, p.viewer, { campusId: "ou", text: "Couch" });
    for (let n = 0; n < 15; n++)
      for (const p of people.slice(0, 3))
        await recordSearch(t.ctx, p.viewer, { campusId: "ou", text: `item ${n}` });
    const popular = await listPopularSearches(t.ctx, { campusId: "ou" });
    expect(popular).toHaveLength(14);
    expect(popular[0]).toEqual({ text: "Couch", people: 5 });
    expect(popular.map((p) => p.text)).not.toContain("555 123 4567");
    expect(await listPopularSearches(t.ctx, { campusId: "ut" })).toEqual([]);

    const suggestions = await getSearchSuggestions(t.ctx, people[0]?.viewer ?? null, {
      campusId: "ou",
      text: "",
    });
    expect(suggestions.popular).toHaveLength(4);
    expect(suggestions.popular[0]).toBe("Couch");
    const typed = await getSearchSuggestions(t.ctx, buyer.viewer, { campusId: "ou", text: "mini fr" });
    expect(typed.completions).toContain("mini fridge");
    const person = await getSearchSuggestions(t.ctx, buyer.viewer, { campusId: "ou", text: "sally" });
    expect(person.people.map((p) => p.id)).toContain(seller.id);
  });
});
