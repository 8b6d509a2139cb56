import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestMember,
  createTestPost,
  pngFile,
  type TestMember,
  type TestPostOptions,
} from "../../tests/support/factories";
import { impossibleCursorTime } from "../../tests/support/impossible-times";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { campuses, searchTerms, user } from "../db/schema";
import { setListingStatus } from "../posts/listing-status";
import { deletePost } from "../posts/posts";
import { DEFAULT_SEARCH_FILTERS, SEARCH_SORTS, searchHref } from "./filters";
import {
  clearSearchHistory,
  listPopularSearches,
  listRecentSearches,
  recordSearch,
  removeRecentSearch,
} from "./history";
import { searchPeople } from "./people";
import { choosePostSearchPlan, postSearchQuery, searchPosts } from "./posts";
import { readSearchFilters } from "./read-filters";
import { getSearchSuggestions } from "./suggestions";
import { expandWords, rebuildSearchTerms, toTsQuery } from "./terms";
import { searchWords, typoBudget, typoDistance } from "./text";

let t: TestContext;
let seller: TestMember;
let buyer: TestMember;
let other: TestMember;

beforeAll(async () => {
  t = await createTestContext({ postLimits: { perMinute: 0, perDay: 0 } });
  seller = await createTestMember(t, { fullName: "Sally Fridgeworth" });
  buyer = await createTestMember(t, { fullName: "Bob Buyer" });
  other = await createTestMember(t, { fullName: "Uma Texan", campusId: "ut" });
});
afterAll(() => t.close());

async function post(
  author: TestMember,
  text: string,
  options: { category?: string; files?: Blob[]; listing?: TestPostOptions["listing"] } = {},
) {
  t.clock.advance(1000);
  return createTestPost(t, author.viewer, { text, ...options });
}

async function found(q: string, viewer = buyer, campusId = "ou") {
  const page = await searchPosts(t.ctx, viewer.viewer, { campusId, q, show: "latest" });
  return page.items.map((item) => item.id);
}

describe("words and typos", () => {
  it("splits typed text as the stored words are split", () => {
    expect(searchWords("  Mini-Fridge, $50!! ")).toEqual(["mini", "fridge", "50"]);
    expect(typoBudget("tv")).toBe(0);
    expect(typoBudget("desk")).toBe(1);
    expect(typoBudget("keyboards")).toBe(2);
    expect(typoDistance("fridge", "firdge", 1)).toBe(1);
    expect(typoDistance("fridge", "frige", 1)).toBe(1);
    expect(typoDistance("fridge", "bridges", 1)).toBe(2);
    // A swap and an added letter overlapping are still two typos.
    expect(typoDistance("limtobin", "litumobin", 3)).toBe(2);
    expect(typoDistance("notebook", "notbeok", 3)).toBe(2);
  });
});

describe("two typos among commoner near spellings", () => {
  it("finds the post of a long word misspelt twice, however many commoner words lie as near", async () => {
    const target = await post(seller, "Vendorama trampoline, folds flat");
    // Seven commoner words two typos from what is typed, one a single typo from it.
    for (const word of [
      "vamdorena",
      "vemkorawa",
      "vemdixana",
      "bemdorane",
      "vemporina",
      "vemdolanu",
      "zemdoraua",
    ]) {
      await post(seller, `${word} sale`);
      await post(seller, `${word} for sale`);
    }
    for (let i = 0; i < 3; i++) await post(seller, `Vemdorona poster ${i}`);
    expect(typoDistance("vemdorana", "vendorama", 2)).toBe(2);
    expect(await found("vemdorana trampoline")).toEqual([target.id]);
    expect(await found("trampoline vemdorana")).toEqual([target.id]);
    // Alone, the word brings its nearest spelling and the likeliest of the farther ones.
    expect((await found("vemdorana")).length).toBeGreaterThan(0);
  });

  it("counts two typos from the longer word, so a letter typed too few still finds an 8-letter word", async () => {
    const notebook = await post(seller, "Leather notebook, unused");
    expect(await found("notbeok leather")).toEqual([notebook.id]);
    // Two swaps in a 10-letter word; a swap overlapping an added letter.
    const trampoline = await post(seller, "Garden trampoline with net");
    expect(await found("rtampolien garden")).toEqual([trampoline.id]);
    expect(await found("gardne tarmpolinne")).toEqual([trampoline.id]);
    // Three typos are too many.
    expect(await found("rtampolein garden")).toEqual([]);
  });
});

describe("post search", () => {
  it("finds a post by its words, typos and a half-typed last word, newest first", async () => {
    const fridge = await post(seller, "Mini fridge, barely used, pick up at Walker dorm");
    const lamp = await post(seller, "Desk lamp and a mini whiteboard");
    expect(await found("mini fridge")).toEqual([fridge.id]);
    expect(await found("mini")).toEqual([lamp.id, fridge.id]);
    // One typo from 4 letters (a missing letter, a swap), two from 8.
    expect(await found("mini frige")).toEqual([fridge.id]);
    expect(await found("mnii fridge")).toEqual([fridge.id]);
    expect(await found("whitebaord")).toEqual([lamp.id]);
    expect(await found("whitbaord")).toEqual([lamp.id]);
    // Under 4 letters no typo is forgiven.
    expect(await found("mimi fridge lmp")).toEqual([]);
    // The last word may be half typed; the others are whole words.
    expect(await found("mini fri")).toEqual([fridge.id]);
    expect(await found("min fridge")).toEqual([]);
    expect(await found("fri mini")).toEqual([]);
    // The category's words are searchable too.
    const chair = await post(seller, "Comfy chair", { category: "furniture" });
    expect(await found("furniture")).toEqual([chair.id]);
    expect(await found("nothing like this")).toEqual([]);
    expect(await found("   ")).toEqual([]);
  });

  it("never shows another campus's post, and a deleted post leaves the results at once", async () => {
    const texan = await post(other, "Longhorn cowboy boots size 10");
    expect(await found("cowboy boots")).toEqual([]);
    expect(await found("cowboy boots", other, "ut")).toEqual([texan.id]);
    const gone = await post(seller, "Graphing calculator TI-84");
    expect(await found("calculator")).toEqual([gone.id]);
    await deletePost(t.ctx, seller.viewer, gone.id);
    expect(await found("calculator")).toEqual([]);
    expect(await found("calculater")).toEqual([]);
    // The dictionary forgot the words only that post held.
    const [row] = await t.ctx.db.select().from(searchTerms).where(eq(searchTerms.term, "calculator"));
    expect(row).toBeUndefined();
  });

  it("keeps the dictionary equal to a rebuild from the posts", async () => {
    const read = async () =>
      (await t.ctx.db.select().from(searchTerms)).map((r) => `${r.campusId}:${r.term}:${r.docCount}`).sort();
    const before = await read();
    await rebuildSearchTerms(t.ctx.db);
    expect(await read()).toEqual(before);
    await t.ctx.db.execute(sql`update search_terms set doc_count = 99`);
    await rebuildSearchTerms(t.ctx.db, "ou");
    await rebuildSearchTerms(t.ctx.db, "ut");
    expect(await read()).toEqual(before);
  });

  it("pages without repeats or gaps, narrowed by category and to posts with media", async () => {
    const made: string[] = [];
    for (let i = 0; i < 23; i++) {
      const created = await post(seller, `Textbook bundle number ${i}`, {
        category: i % 2 === 0 ? "books/movies/music" : "school supplies",
      });
      made.unshift(created.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await searchPosts(t.ctx, buyer.viewer, {
        campusId: "ou",
        q: "textbook",
        show: "latest",
        cursor,
      });
      expect(page.items.length).toBeLessThanOrEqual(10);
      seen.push(...page.items.map((item) => item.id));
      cursor = page.nextCursor;
      pages++;
      // A post arriving meanwhile appears above, never inside the pages being read.
      if (pages === 1) await post(seller, "Textbook late arrival");
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(made);

    const filters = { ...DEFAULT_SEARCH_FILTERS, category: "school supplies" };
    const narrowed = await searchPosts(t.ctx, buyer.viewer, {
      campusId: "ou",
      q: "textbook bundle",
      show: "latest",
      filters,
      limit: 50,
    });
    expect(narrowed.items.map((item) => item.id)).toEqual(made.filter((_, j) => j % 2 === 1));
    expect(narrowed.items.every((item) => item.category === "school supplies")).toBe(true);
    expect(narrowed.applied.category).toBe("school supplies");

    const withPhoto = await post(seller, "Textbook with a photo", { files: [await pngFile()] });
    const media = await searchPosts(t.ctx, buyer.viewer, { campusId: "ou", q: "textbook", show: "media" });
    expect(media.items.map((item) => item.id)).toEqual([withPhoto.id]);
  });

  it("filters by price range and condition, hides sold listings unless asked, and pages price sorts without repeats", async () => {
    const prices = [0, 1500, 4000, 4000, 9000, null, 2500, 12000, 500, 4000, 3000, 7000];
    const made: { id: string; cents: number | null }[] = [];
    for (const [i, cents] of prices.entries()) {
      const created = await post(seller, `Gaming monitor offer ${i}`, {
        listing:
          cents === null
            ? undefined
            : { price: cents === 0 ? "free" : String(cents / 100), condition: i % 2 ? "good" : "new" },
      });
      made.push({ id: created.id, cents });
    }
    const sold = made[4];
    if (!sold) throw new Error("no listing to sell");
    await setListingStatus(t.ctx, seller.viewer, { postId: sold.id, status: "sold" });
    const ids = async (filters: Partial<typeof DEFAULT_SEARCH_FILTERS>) => {
      const page = await searchPosts(t.ctx, buyer.viewer, {
        campusId: "ou",
        q: "gaming monitor",
        show: "latest",
        filters: { ...DEFAULT_SEARCH_FILTERS, ...filters },
        limit: 50,
      });
      return page.items.map((item) => item.id);
    };
    const newestFirst = [...made].reverse();
    // Sold listings leave the default results; asked for, they come back.
    expect(await ids({})).toEqual(newestFirst.filter((entry) => entry !== sold).map((entry) => entry.id));
    expect(await ids({ includeSold: true })).toEqual(newestFirst.map((entry) => entry.id));
    const inRange = newestFirst
      .filter((entry) => entry !== sold && entry.cents !== null && entry.cents >= 2000 && entry.cents <= 5000)
      .map((entry) => entry.id);
    expect(await ids({ minPriceCents: 2000, maxPriceCents: 5000 })).toEqual(inRange);
    const good = newestFirst
      .filter((entry) => entry !== sold && entry.cents !== null && made.indexOf(entry) % 2 === 1)
      .map((entry) => entry.id);
    expect(await ids({ condition: "good" })).toEqual(good);

    // Price low to high in pages of 3: every priced listing once, in price order, unpriced last.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await searchPosts(t.ctx, buyer.viewer, {
        campusId: "ou",
        q: "gaming monitor",
        show: "latest",
        filters: { ...DEFAULT_SEARCH_FILTERS, sort: "price_asc" },
        cursor,
        limit: 3,
      });
      seen.push(...page.items.map((item) => item.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    const shown = made.filter((entry) => entry !== sold);
    expect(seen).toHaveLength(shown.length);
    const centsOf = (id: string) => shown.find((entry) => entry.id === id)?.cents ?? null;
    const seenCents = seen.map(centsOf);
    expect(seenCents.at(-1)).toBeNull();
    const priced = seenCents.filter((cents): cents is number => cents !== null);
    expect(priced).toEqual([...priced].sort((a, b) => a - b));
  });

  it("refuses a cursor whose time names no moment (2026-02-30), for every sort (generated, docs/product/outages-and-errors.md)", async () => {
    const uuid = "0b3c5a4e-8f1d-4c1e-9a55-2d7f4f6b9e01";
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...SEARCH_SORTS), impossibleCursorTime, async (sort, time) => {
        // [sort, …the sort's keys]: a price (null, or cents) before the time on the price sorts.
        const values = sort === "newest" ? [time, uuid] : [null, time, uuid];
        const cursor = Buffer.from(JSON.stringify([sort, ...values])).toString("base64url");
        for (const viewer of [buyer.viewer, null]) {
          await expect(
            searchPosts(t.ctx, viewer, {
              campusId: "ou",
              q: "textbook",
              show: "latest",
              filters: { ...DEFAULT_SEARCH_FILTERS, sort },
              cursor,
            }),
          ).rejects.toMatchObject({ code: "invalid-input", status: 400 });
        }
      }),
      { numRuns: 40 },
    );
  });

  it("refuses a tampered cursor and a visitor on a private campus", async () => {
    await expect(
      searchPosts(t.ctx, buyer.viewer, { campusId: "ou", q: "textbook", show: "latest", cursor: "bm9wZQ" }),
    ).rejects.toMatchObject({ code: "invalid-input" });
    await t.ctx.db.update(campuses).set({ privacy: "private" }).where(eq(campuses.id, "smu"));
    await t.ctx.campuses.refresh();
    const visitor = searchPosts(t.ctx, null, { campusId: "smu", q: "anything", show: "latest" });
    await expect(visitor).rejects.toMatchObject({ code: "private-campus" });
  });
});

describe("filters in the address", () => {
  it("reads and writes category, sort, price, condition and sold", () => {
    const filters = readSearchFilters(
      new URLSearchParams(
        "category=furniture&sort=price_asc&min_price=80&max_price=20&condition=good&sold=1",
      ),
    );
    expect(filters).toEqual({
      category: "furniture",
      sort: "price_asc",
      minPriceCents: 2000,
      maxPriceCents: 8000,
      condition: "good",
      includeSold: true,
    });
    expect(searchHref("desk", "latest", filters)).toBe(
      "/search?q=desk&category=furniture&sort=price_asc&min_price=20&max_price=80&condition=good&sold=1",
    );
    // Malformed values are dropped, never an error.
    expect(
      readSearchFilters(new URLSearchParams("category=nope&sort=x&min_price=-3&condition=mint")),
    ).toEqual(DEFAULT_SEARCH_FILTERS);
  });
});

describe("people", () => {
  it("finds the campus's people by name or username, with a typo, never another campus's", async () => {
    const byName = await searchPeople(t.ctx, buyer.viewer, { campusId: "ou", text: "sally" });
    expect(byName.items.map((p) => p.id)).toEqual([seller.id]);
    const typo = await searchPeople(t.ctx, buyer.viewer, { campusId: "ou", text: "saly" });
    expect(typo.items.map((p) => p.id)).toContain(seller.id);
    const [row] = await t.ctx.db.select({ username: user.username }).from(user).where(eq(user.id, seller.id));
    const byUsername = await searchPeople(t.ctx, buyer.viewer, { campusId: "ou", text: row?.username ?? "" });
    expect(byUsername.items[0]?.id).toBe(seller.id);
    expect((await searchPeople(t.ctx, buyer.viewer, { campusId: "ou", text: "uma texan" })).items).toEqual(
      [],
    );
    expect((await searchPeople(t.ctx, buyer.viewer, { campusId: "ou", text: "s" })).items).toEqual([]);
    const notMe = await searchPeople(t.ctx, seller.viewer, {
      campusId: "ou",
      text: "sally",
      excludeViewer: true,
    });
    expect(notMe.items).toEqual([]);
  });

  it("pages people without repeats", async () => {
    for (let i = 0; i < 4; i++) await createTestMember(t, { fullName: `Pager${"abcd"[i]} Pat` });
    const first = await searchPeople(t.ctx, buyer.viewer, { campusId: "ou", text: "pager", limit: 3 });
    expect(first.items).toHaveLength(3);
    const second = await searchPeople(t.ctx, buyer.viewer, {
      campusId: "ou",
      text: "pager",
      limit: 3,
      cursor: first.nextCursor,
    });
    expect(second.items).toHaveLength(1);
    expect(second.nextCursor).toBeNull();
    const ids = [...first.items, ...second.items].map((p) => p.id);
    expect(new Set(ids).size).toBe(4);
  });
});

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

describe("the two ways of reading a search's posts", () => {
  it("walks newest first for common words only, and a walk and a bitmap give the same pages", async () => {
    const group = (posts: number) => ({ terms: ["x"], posts });
    const filters = DEFAULT_SEARCH_FILTERS;
    expect(choosePostSearchPlan([group(5000)], "latest", filters)).toBe("walk");
    expect(choosePostSearchPlan([group(5000), group(3)], "latest", filters)).toBe("bitmap");
    expect(choosePostSearchPlan([group(5000)], "latest", { ...filters, category: "furniture" })).toBe(
      "bitmap",
    );
    expect(choosePostSearchPlan([group(5000)], "latest", { ...filters, sort: "price_asc" })).toBe("bitmap");

    for (let i = 0; i < 14; i++) {
      const made = await post(seller, `Walkable lamp ${i}`, {
        files: i % 3 === 0 ? [await pngFile()] : undefined,
        listing: { price: "20", condition: "good" },
      });
      if (i % 4 === 0) await setListingStatus(t.ctx, seller.viewer, { postId: made.id, status: "sold" });
    }
    const groups = await expandWords(t.ctx.db, "ou", ["walkable"]);
    if (!groups) throw new Error("no terms");
    for (const show of ["latest", "media"] as const) {
      for (const includeSold of [false, true]) {
        const read = async (plan: "walk" | "bitmap", after: (string | number | null)[] | null) =>
          (
            await postSearchQuery(t.ctx.db, null, {
              campusId: "ou",
              tsquery: toTsQuery(groups),
              show,
              filters: { ...DEFAULT_SEARCH_FILTERS, includeSold },
              after,
              limit: 4,
              plan,
            })
          ).map((row) => ({ id: row.id, cursor: row.cursorValues }));
        const walked = await read("walk", null);
        expect(walked).toEqual(await read("bitmap", null));
        const after = walked[walked.length - 1]?.cursor ?? null;
        expect(await read("walk", after)).toEqual(await read("bitmap", after));
      }
    }
  });
});
