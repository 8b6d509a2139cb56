import { readFile } from "node:fs/promises";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { plainTextToRichText } from "../../server/posts/rich-text";
import { hydrated } from "./support/page";
import { writePhoto } from "./support/photos";
import { readyStudent } from "./support/student";

// spec 2 §2 'Infinite scroll', §4 'Feed pagination', §7 Media: more posts than a page (15), read
// page after page as the student scrolls or asks, each post once (decision 0106: the next pages
// come as JSON from /api/lists).

const POSTS = 17;

/** Scrolls to the end of the page, again as pages arrive (other tests post on OU too), until `target` is there. */
async function scrollUntilShown(page: Page, target: Locator): Promise<void> {
  await expect(async () => {
    await page.keyboard.press("End");
    await expect(target).toHaveCount(1, { timeout: 1_500 });
  }).toPass({ timeout: 60_000 });
}

test("the feed and the media grid load their next pages, each post once, to the end", async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  const avatar = await writePhoto(testInfo.outputPath("avatar.png"), { r: 40, g: 140, b: 90 }, 400, 400);
  const photo = await readFile(
    await writePhoto(testInfo.outputPath("item.png"), { r: 90, g: 60, b: 160 }, 320, 240),
  );
  await readyStudent(page, "scroller", avatar);

  // The composer's form as a browser without JavaScript sends it (spec 2 §4), one post at a time.
  const tag = `Scroll item ${Date.now()}`;
  for (let n = 1; n <= POSTS; n++) {
    const sent = await page.request.post("/create/post", {
      multipart: {
        text: JSON.stringify(plainTextToRichText(`${tag} #${n}`)),
        files: { name: `item-${n}.png`, mimeType: "image/png", buffer: photo },
      },
      maxRedirects: 0,
    });
    expect(sent.status(), `post ${n}`).toBe(302);
  }
  const mine = (n: number) => page.getByText(`${tag} #${n}`, { exact: true });

  // The feed: the newest 15 first; the oldest two only after scrolling, fetched as JSON.
  await page.goto("/home");
  await hydrated(page);
  await expect(mine(POSTS)).toBeVisible();
  await expect(mine(1)).toHaveCount(0);
  const nextPage = page.waitForResponse((response) => response.url().includes("/api/lists/feed?cursor="));
  await scrollUntilShown(page, mine(1));
  expect((await nextPage).status()).toBe(200);
  await expect(mine(1)).toBeVisible();
  for (let n = 1; n <= POSTS; n++) await expect(mine(n), `post ${n} once`).toHaveCount(1);

  // The media grid: 15 tiles and 'Click To Load More..'; reaching it (1 px, spec 2 §9) brings the rest.
  await page.goto("/media");
  await hydrated(page);
  const grid = page.getByRole("list", { name: "Photos and videos" });
  // '#1' without matching '#10'…'#17'.
  const tile = (n: number) =>
    grid.getByRole("listitem").filter({ hasText: new RegExp(`${tag} #${n}(?!\\d)`) });
  await expect(tile(POSTS)).toBeVisible();
  await expect(tile(1)).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Click To Load More.." })).toBeVisible();
  const mediaPage = page.waitForResponse((response) => response.url().includes("/api/lists/media?cursor="));
  await scrollUntilShown(page, tile(1));
  expect((await mediaPage).status()).toBe(200);
  await expect(tile(1)).toBeVisible();
  for (let n = 1; n <= POSTS; n++) await expect(tile(n), `tile ${n} once`).toHaveCount(1);
});
