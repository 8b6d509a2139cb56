import { expect, test } from "vitest";
import { categoryHref } from "./category-filter";

test("categoryHref sets the category, drops the page and the posted flag, and 'all' means none", () => {
  expect(categoryHref("/home", "", "furniture")).toBe("/home?category=furniture");
  expect(categoryHref("/home", "?category=drones&cursor=abc&filter=notify-posted", "tickets")).toBe(
    "/home?category=tickets",
  );
  expect(categoryHref("/home", "?category=drones", "all")).toBe("/home");
  expect(categoryHref("/home", "?category=drones", null)).toBe("/home");
});
