import { expect, test } from "@playwright/test";
import { hostUrl } from "./support/env";
import { hydrated } from "./support/page";
import { createStudent } from "./support/student";

// Decision 0100, spec 2 §2 'Media': the media grid of a campus, its tiles at phone
// width, and its empty state. On UF's campus, where no other spec posts (decision 0155); the
// student and the post come from the fixture (decision 0155).

test("a post with a photo appears in /media; at 390 px its tile opens the post", async ({ page }) => {
  const words = `Road bike ${Date.now()}`;
  await createStudent(page.context(), { campus: "uf", label: "media", posts: [{ text: words, photos: 1 }] });

  // Wide screen: the tile, its square thumbnail, and the overlay with the post's age on hover.
  await page.goto(hostUrl("uf", "/media"));
  await hydrated(page);
  await expect(page.getByRole("link", { name: "Media" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("link", { name: "Feed" })).toHaveAttribute("href", "/home");
  const grid = page.getByRole("list", { name: "Photos and videos" });
  const tile = grid.getByRole("listitem").filter({ hasText: words });
  await expect(tile).toHaveCount(1);
  const thumbnail = tile.locator("img");
  await expect(thumbnail).toHaveAttribute("src", /\/media-files\/images\/posts\/.+-480\.webp$/);
  await expect(thumbnail).toHaveAttribute("width", "480");
  await expect(thumbnail).toHaveAttribute("height", "360");
  await tile.hover();
  await expect(tile.getByText(/ ago$|^just now$/)).toBeVisible();
  // One's own post: no Message, and the share menu offers Delete.
  await expect(tile.getByRole("link", { name: /^Message/ })).toHaveCount(0);
  await tile.getByRole("button", { name: "Share" }).click();
  await expect(page.getByRole("menuitem", { name: "Copy link" })).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "Delete" })).toBeVisible();
  await page.keyboard.press("Escape");

  // spec 2 §2: at 1000 px and below there is no overlay, and tapping a tile opens /post/{id}.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(hostUrl("uf", "/media"));
  await hydrated(page);
  const phoneTile = page
    .getByRole("list", { name: "Photos and videos" })
    .getByRole("listitem")
    .filter({ hasText: words });
  await expect(phoneTile.getByRole("button", { name: "Share" })).toBeHidden();
  await phoneTile.getByRole("link", { name: new RegExp(words) }).click();
  await expect(page).toHaveURL(/\/post\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("article", { name: "Post by Jamie R." })).toContainText(words);
});

test("a campus without photos or videos shows 'No Photos / Videos'", async ({ page }) => {
  // No end-to-end test posts on Florida State's campus.
  await page.goto(hostUrl("fsu", "/media"));
  await expect(page.getByRole("heading", { name: "No Photos / Videos" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Photos and videos" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Click To Load More.." })).toHaveCount(0);
});
