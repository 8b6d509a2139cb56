import { expect, test } from "vitest";
import { pageHref } from "./list-pages";

test("pageHref keeps the query (the category) and sets the cursor", () => {
  expect(pageHref("/home", "?category=furniture", "abc")).toBe("/home?category=furniture&cursor=abc");
  expect(pageHref("/saved", "?cursor=old", "new")).toBe("/saved?cursor=new");
});
