import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { plainTextToRichText } from "../../server/posts/rich-text";
import { hydrated } from "./support/page";
import { writePhoto } from "./support/photos";
import { readyStudent } from "./support/student";

// spec 2 §2 'Infinite scroll', §4 'Feed pagination', §7 Media: more posts than a page (15), read
// page after page as the student scrolls or asks, each post once (decision 0106: the next pages
// come as JSON from /api/lists).

const POSTS = 17;

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
  while ((await mine(1).count()) === 0) {
    await page.keyboard.press("End");
    await page.waitForTimeout(300);
    if ((await page.getByText("You've reached the end.").count()) > 0 && (await mine(1).count()) === 0) break;
  }
  expect((await nextPage).status()).toBe(200);
  await expect(mine(1)).toBeVisible();
  for (let n = 1; n <= POSTS; n++) await expect(mine(n), `post ${n} once`).toHaveCount(1);

  // The media grid: 15 tiles, then 'Click To Load More..' brings the rest.
  await page.goto("/media");
  await hydrated(page);
  const grid = page.getByRole("list", { name: "Photos and videos" });
  // '#1' without matching '#10'…'#17'.
  const tile = (n: number) =>
    grid.getByRole("listitem").filter({ hasText: new RegExp(`${tag} #${n}(?!\\d)`) });
  await expect(tile(POSTS)).toBeVisible();
  await expect(tile(1)).toHaveCount(0);
  const mediaPage = page.waitForResponse((response) => response.url().includes("/api/lists/media?cursor="));
  await page.getByRole("link", { name: "Click To Load More.." }).click();
  expect((await mediaPage).status()).toBe(200);
  await expect(tile(1)).toBeVisible();
  for (let n = 1; n <= POSTS; n++) await expect(tile(n), `tile ${n} once`).toHaveCount(1);
});
