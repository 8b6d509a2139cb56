import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, createTestPost, type TestMember } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { savedSearches, savedSearchHits } from "../db/schema";
import {
  SAVED_SEARCH_LIMIT,
  SAVED_SEARCH_MESSAGES,
  savedSearchFiltersInWords,
} from "./saved-search-rules.shared";
import {
  canonicalSearch,
  deleteSavedSearch,
  findSavedSearch,
  listSavedSearches,
  openSavedSearch,
  renameSavedSearch,
  SavedSearchError,
  savedSearchUnsubscribeToken,
  saveSearch,
  setSavedSearchCadence,
  unsubscribeSavedSearch,
} from "./saved-searches";

let t: TestContext;
let student: TestMember;
let other: TestMember;

beforeAll(async () => {
  t = await createTestContext({ postLimits: { perMinute: 0, perDay: 0 } });
  student = await createTestMember(t, { fullName: "Sam Saver" });
  other = await createTestMember(t, { fullName: "Olga Other" });
  // 'lamp' is in two listings, 'desk' in one: 'desk' is the rarer word.
  await createTestPost(t, other.viewer, { text: "Desk lamp, warm light" });
  await createTestPost(t, other.viewer, { text: "Floor lamp" });
});
afterAll(() => t.close());

describe("a saved search is the search address's own query", () => {
  it("reads the text and filters as /search does, and compares without case, order or sort", () => {
    const a = canonicalSearch("?q=Desk%20%20Lamp&max_price=40&category=furniture&sort=price_asc");
    expect(a.q).toBe("Desk Lamp");
    expect(a.filters).toMatchObject({ category: "furniture", maxPriceCents: 4000, sort: "price_asc" });
    const b = canonicalSearch("category=furniture&q=desk+lamp&max_price=40");
    expect(b.queryKey).toBe(a.queryKey);
    expect(canonicalSearch("q=desk+lamp").queryKey).not.toBe(a.queryKey);
    // Malformed filters are dropped as /search drops them.
    expect(canonicalSearch("q=lamp&max_price=-5&condition=shiny").filters).toMatchObject({
      maxPriceCents: null,
      condition: null,
    });
    expect(savedSearchFiltersInWords(a.filters)).toBe("Furniture · up to $40");
  });
});

describe("saving, listing, renaming, alerts and deleting", () => {
  it("saves once: the same search again answers the one already saved", async () => {
    const first = await saveSearch(t.ctx, student.viewer, { campusId: "ou", query: "q=desk+lamp" });
    expect(first.created).toBe(true);
    const again = await saveSearch(t.ctx, student.viewer, { campusId: "ou", query: "q=DESK%20lamp" });
    expect(again).toEqual({ id: first.id, created: false });
    const [row] = await t.ctx.db.select().from(savedSearches).where(eq(savedSearches.id, first.id));
    expect(row).toMatchObject({
      name: "desk lamp",
      query: "q=desk+lamp",
      rareWord: "desk",
      cadence: "instant",
    });
    expect(await findSavedSearch(t.ctx, student.viewer, "?q=Desk+Lamp")).toEqual({
      id: first.id,
      name: "desk lamp",
    });
    expect(await findSavedSearch(t.ctx, other.viewer, "?q=Desk+Lamp")).toBeNull();
  });

  it("refuses a search without text, another campus, and a visitor", async () => {
    await expect(
      saveSearch(t.ctx, student.viewer, { campusId: "ou", query: "category=furniture" }),
    ).rejects.toThrow(SAVED_SEARCH_MESSAGES.noText);
    await expect(
      saveSearch(t.ctx, student.viewer, { campusId: "ut", query: "q=lamp" }),
    ).rejects.toMatchObject({
      status: 404,
    });
    await expect(saveSearch(t.ctx, null, { campusId: "ou", query: "q=lamp" })).rejects.toBeTruthy();
  });

  it("lists the student's own, renames, sets the alerts, deletes; another student's id is not found", async () => {
    const me = await createTestMember(t, { fullName: "Lia Lister" });
    const { id } = await saveSearch(t.ctx, me.viewer, { campusId: "ou", query: "q=floor+lamp&min_price=5" });
    await renameSavedSearch(t.ctx, me.viewer, { id, name: "  Lamps   for the dorm " });
    await setSavedSearchCadence(t.ctx, me.viewer, { id, cadence: "daily" });
    const [listed] = await listSavedSearches(t.ctx, me.viewer);
    expect(listed).toMatchObject({
      id,
      name: "Lamps for the dorm",
      cadence: "daily",
      q: "floor lamp",
      newMatches: 0,
    });
    expect(listed?.filters.minPriceCents).toBe(500);

    for (const attempt of [
      () => renameSavedSearch(t.ctx, other.viewer, { id, name: "mine now" }),
      () => setSavedSearchCadence(t.ctx, other.viewer, { id, cadence: "off" }),
      () => deleteSavedSearch(t.ctx, other.viewer, { id }),
      () => openSavedSearch(t.ctx, other.viewer, { id }),
      () => deleteSavedSearch(t.ctx, me.viewer, { id: "not-a-uuid" }),
    ]) {
      await expect(attempt()).rejects.toMatchObject({ status: 404, message: SAVED_SEARCH_MESSAGES.notFound });
    }
    await expect(setSavedSearchCadence(t.ctx, me.viewer, { id, cadence: "hourly" })).rejects.toThrow(
      SAVED_SEARCH_MESSAGES.badCadence,
    );
    await expect(renameSavedSearch(t.ctx, me.viewer, { id, name: "   " })).rejects.toThrow(
      SAVED_SEARCH_MESSAGES.nameRequired,
    );
    await expect(renameSavedSearch(t.ctx, me.viewer, { id, name: "x".repeat(101) })).rejects.toThrow(
      SAVED_SEARCH_MESSAGES.nameTooLong,
    );
    // Nothing of the refused changes landed.
    expect((await listSavedSearches(t.ctx, me.viewer))[0]).toMatchObject({
      name: "Lamps for the dorm",
      cadence: "daily",
    });

    await deleteSavedSearch(t.ctx, me.viewer, { id });
    expect(await listSavedSearches(t.ctx, me.viewer)).toEqual([]);
  });

  it(`allows ${SAVED_SEARCH_LIMIT} searches per student, then says so`, async () => {
    const me = await createTestMember(t, { fullName: "Max Many" });
    for (let i = 0; i < SAVED_SEARCH_LIMIT; i++) {
      await saveSearch(t.ctx, me.viewer, { campusId: "ou", query: `q=thing+${i}` });
    }
    const refused = saveSearch(t.ctx, me.viewer, { campusId: "ou", query: "q=one+more" });
    await expect(refused).rejects.toBeInstanceOf(SavedSearchError);
    await expect(saveSearch(t.ctx, me.viewer, { campusId: "ou", query: "q=one+more" })).rejects.toMatchObject(
      {
        status: 409,
        message: "You can save up to 20 searches",
      },
    );
    // One already saved still opens.
    expect((await saveSearch(t.ctx, me.viewer, { campusId: "ou", query: "q=thing+3" })).created).toBe(false);
    expect(await listSavedSearches(t.ctx, me.viewer)).toHaveLength(SAVED_SEARCH_LIMIT);
  });

  it("counts the matches delivered since it was last opened; opening clears them", async () => {
    const me = await createTestMember(t, { fullName: "Nia New" });
    const { id } = await saveSearch(t.ctx, me.viewer, { campusId: "ou", query: "q=kettle" });
    t.clock.advance(60_000);
    const kettle = await createTestPost(t, other.viewer, { text: "Electric kettle" });
    await t.ctx.db.insert(savedSearchHits).values({
      savedSearchId: id,
      postId: kettle.id,
      userId: me.id,
      campusId: "ou",
      createdAt: t.clock.now(),
    });
    expect((await listSavedSearches(t.ctx, me.viewer))[0]?.newMatches).toBe(1);
    t.clock.advance(60_000);
    const [before] = await t.ctx.db
      .select({ openedAt: savedSearches.openedAt })
      .from(savedSearches)
      .where(eq(savedSearches.id, id));
    const opened = await openSavedSearch(t.ctx, me.viewer, { id });
    // Decision 0621: the address carries the previous opening, so /search marks what came since.
    expect(opened.query).toBe(`q=kettle&since=${encodeURIComponent(before?.openedAt.toISOString() ?? "")}`);
    expect((await listSavedSearches(t.ctx, me.viewer))[0]?.newMatches).toBe(0);
  });

  it("one-click unsubscribe turns only that search's alerts off; a wrong token changes nothing", async () => {
    const me = await createTestMember(t, { fullName: "Una Unsub" });
    const a = await saveSearch(t.ctx, me.viewer, { campusId: "ou", query: "q=bike" });
    const b = await saveSearch(t.ctx, me.viewer, { campusId: "ou", query: "q=helmet" });
    expect(await unsubscribeSavedSearch(t.ctx, "forged")).toBe(false);
    expect(await unsubscribeSavedSearch(t.ctx, savedSearchUnsubscribeToken(t.ctx, a.id))).toBe(true);
    const byId = new Map((await listSavedSearches(t.ctx, me.viewer)).map((s) => [s.id, s.cadence]));
    expect(byId.get(a.id)).toBe("off");
    expect(byId.get(b.id)).toBe("instant");
  });
});

describe("the settings' choices", () => {
  it("are the schema's cadences, in order", async () => {
    const { SAVED_SEARCH_CADENCES } = await import("../db/schema");
    const { SAVED_SEARCH_CADENCE_ORDER } = await import("./saved-search-rules.shared");
    expect([...SAVED_SEARCH_CADENCE_ORDER]).toEqual([...SAVED_SEARCH_CADENCES]);
  });
});
