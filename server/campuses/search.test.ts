import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { FindSchoolQuerySchema, schoolHit, searchCampuses } from "./search";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

async function ids(text: string): Promise<string[]> {
  return (await searchCampuses(t.ctx.db, text)).map((hit) => hit.id);
}

describe("Find Your School search (spec 1 §2, spec 2 §2)", () => {
  it("finds campuses by the school's name", async () => {
    expect((await ids("texas")).sort()).toEqual(["tamu", "unt", "ut"]);
    expect(await ids("Massachusetts")).toEqual(["mit"]);
  });

  it("finds campuses by their short name or code, the exact one first", async () => {
    expect((await ids("UT"))[0]).toBe("ut");
    expect((await ids("tamu"))[0]).toBe("tamu");
    expect((await ids("okstate"))[0]).toBe("okstate");
  });

  it("reads a NUL or other control character in the text as a space", async () => {
    expect(FindSchoolQuerySchema.parse({ q: "texas\u0000a&m\u0007" }).q).toBe("texas a&m");
    expect(await ids("texas\u0000")).toEqual(await ids("texas"));
  });

  it("finds campuses by city", async () => {
    expect((await ids("cambridge")).sort()).toEqual(["harvard", "mit"]);
    expect(await ids("austin")).toEqual(["ut"]);
  });

  it("tolerates a typo", async () => {
    expect((await ids("stanfrd"))[0]).toBe("stanford");
    expect((await ids("harvrd"))[0]).toBe("harvard");
  });

  it("ranks the best match first", async () => {
    expect((await ids("texas a&m"))[0]).toBe("tamu");
    expect((await ids("north texas"))[0]).toBe("unt");
  });

  it("never returns the generic instance, and nothing for text that names no school", async () => {
    expect(await ids("campus buy sell")).not.toContain("www");
    expect(await ids("zzzqqq")).toEqual([]);
  });

  it("lists every campus but the generic one, by name, when nothing is typed", async () => {
    const all = await ids("   ");
    expect(all).toHaveLength(14);
    expect(all).not.toContain("www");
    const names = (await searchCampuses(t.ctx.db, "")).map((hit) => hit.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it("returns what a hit shows: name, school, city, state, country and logo", async () => {
    const [ut] = await searchCampuses(t.ctx.db, "austin");
    expect(ut).toEqual({
      id: "ut",
      code: "UT",
      name: "UT",
      school: "The University of Texas at Austin",
      city: "Austin",
      state: "TX",
      country: "US",
      logo: "/logos/ut.svg",
    });
  });

  it("treats the text as text, not as a pattern", async () => {
    expect(await ids("%")).toEqual([]);
    expect(await ids("'; drop table campuses; --")).toEqual([]);
    expect(await ids("texas")).toHaveLength(3);
  });
});

describe("the /search_schools query", () => {
  it("normalises the text and the chosen campus", () => {
    expect(FindSchoolQuerySchema.parse({ q: "  texas   a&m ", campus: " UT " })).toEqual({
      q: "texas a&m",
      campus: "ut",
    });
    expect(FindSchoolQuerySchema.parse({})).toEqual({ q: "", campus: null });
    expect(FindSchoolQuerySchema.parse({ q: "x".repeat(500), campus: "" }).q).toHaveLength(100);
  });

  it("makes a hit of a campus, but never of the generic one", () => {
    const base = {
      code: "UT",
      name: "UT",
      school: "The University of Texas at Austin",
      city: "Austin",
      state: "TX",
      country: "US",
      logo: "/logos/ut.svg",
    };
    expect(schoolHit({ ...base, id: "ut", generic: false })?.id).toBe("ut");
    expect(schoolHit({ ...base, id: "www", generic: true })).toBeNull();
    expect(schoolHit(null)).toBeNull();
  });
});
