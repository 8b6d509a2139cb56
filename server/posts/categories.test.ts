import { describe, expect, it } from "vitest";
import {
  ALL_CATEGORIES,
  CATEGORIES,
  CATEGORY_OPTIONS,
  categoryFilter,
  isPostCategory,
} from "./categories.shared";

describe("categories (spec 2 §3)", () => {
  it("lists 'All categories' first, then the 32 categories with lower-case values", () => {
    expect(CATEGORY_OPTIONS[0]).toEqual({ text: "All categories", value: "all" });
    expect(CATEGORIES).toHaveLength(32);
    expect(CATEGORIES[0]).toEqual({ text: "Audio & Speakers", value: "audio & speakers" });
    expect(CATEGORIES[27]).toEqual({ text: "TVs & Media players", value: "tvs & media players" });
    expect(CATEGORIES[31]).toEqual({ text: "3D Printers & Supplies", value: "3d printers & supplies" });
    for (const category of CATEGORIES) expect(category.value).toBe(category.text.toLowerCase());
  });

  it("stores categories, never 'all'; filters fall back to every category", () => {
    expect(isPostCategory("books/movies/music")).toBe(true);
    expect(isPostCategory(ALL_CATEGORIES.value)).toBe(false);
    expect(isPostCategory("Books/Movies/Music")).toBe(false);
    expect(categoryFilter("all")).toBeNull();
    expect(categoryFilter("nonsense")).toBeNull();
    expect(categoryFilter("drones")).toBe("drones");
  });
});
