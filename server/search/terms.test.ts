import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestMember,
  createTestPost,
  type TestMember,
  type TestPostOptions,
} from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { posts } from "../db/schema";
import { searchPosts } from "./posts";
import { getSearchSuggestions } from "./suggestions";
import { searchWords, typoBudget, typoDistance } from "./text.shared";

let t: TestContext;
let seller: TestMember;
let buyer: TestMember;

beforeAll(async () => {
  t = await createTestContext({ postLimits: { perMinute: 0, perDay: 0 } });
  seller = await createTestMember(t, { fullName: "Sally Fridgeworth" });
  buyer = await createTestMember(t, { fullName: "Bob Buyer" });
  await createTestMember(t, { fullName: "Uma Texan", campusId: "ut" });
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

describe("the words of hidden and removed posts", () => {
  async function completions(text: string) {
    return (await getSearchSuggestions(t.ctx, buyer.viewer, { campusId: "ou", text })).completions;
  }
  async function setModerationState(id: string, state: "hidden" | "removed" | null) {
    await t.ctx.db.update(posts).set({ moderationState: state }).where(eq(posts.id, id));
  }

  it("leave the header's completions while the post is hidden or removed, and come back when it is restored", async () => {
    const lamp = await post(seller, "Quixotrel lamp, barely used");
    expect(await completions("quixot")).toContain("quixotrel");

    await setModerationState(lamp.id, "hidden");
    expect(await completions("quixot")).toEqual([]);
    await setModerationState(lamp.id, "removed");
    expect(await completions("quixot")).toEqual([]);
    await setModerationState(lamp.id, null);
    expect(await completions("quixot")).toContain("quixotrel");

    // Deleting a removed post takes nothing away twice: a second post's word stays counted.
    const second = await post(seller, "Quixotrel shade");
    await setModerationState(lamp.id, "removed");
    await t.ctx.db.delete(posts).where(eq(posts.id, lamp.id));
    expect(await completions("quixot")).toContain("quixotrel");
    await t.ctx.db.delete(posts).where(eq(posts.id, second.id));
    expect(await completions("quixot")).toEqual([]);
  });
});
