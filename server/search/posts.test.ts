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
import { campuses, searchTerms } from "../db/schema";
import { setListingStatus } from "../posts/listing-status";
import { deletePost } from "../posts/posts";
import { DEFAULT_SEARCH_FILTERS, SEARCH_SORTS, searchHref } from "./filters.shared";
import { choosePostSearchPlan, postSearchQuery, searchPosts } from "./posts";
import { readSearchFilters } from "./read-filters";
import { expandWords, rebuildSearchTerms, toTsQuery } from "./terms";

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
              now: t.ctx.clock.now().toISOString(),
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
