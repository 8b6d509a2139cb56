import { readFile } from "node:fs/promises";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { plainTextToRichText } from "../../server/posts/rich-text.shared";
import { APP_PORT, hostUrl } from "./support/env";
import { commentOnPost, hydrated } from "./support/page";
import { writePhoto } from "./support/photos";
import { createStudent } from "./support/student";

// spec 2 §2 'Infinite scroll', §4 'Feed pagination', §7 Media: more posts than a page (15), read
// page after page as the student scrolls or asks, each post once (decision 0106: the next pages
// come as JSON from /api/lists). On Harvard's campus, where no other spec posts (decision 0155), so
// the pages hold this test's posts and the student's 'joined' post only.

const POSTS = 17;

const CAMPUS = "harvard";
test.use({ baseURL: hostUrl(CAMPUS) });

/** Scrolls to the end of the page: the next page arrives and shows `target`. */
async function scrollUntilShown(page: Page, target: Locator): Promise<void> {
  await page.keyboard.press("End");
  await expect(target).toHaveCount(1);
}

test("the feed and the media grid load their next pages, each post once, to the end", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const photo = await readFile(
    await writePhoto(testInfo.outputPath("item.png"), { r: 90, g: 60, b: 160 }, 320, 240),
  );
  const student = await createStudent(page.context(), { campus: CAMPUS, label: "scroller" });
  // Node does not resolve *.localhost as browsers do: the campus's Host and the session cookie by hand.
  const asStudent = {
    host: `${CAMPUS}.localhost:${APP_PORT}`,
    cookie: `${student.cookie.name}=${student.cookie.value}`,
  };

  // The composer's form as a browser without JavaScript sends it (spec 2 §4), one post at a time.
  const tag = `Scroll item ${Date.now()}`;
  for (let n = 1; n <= POSTS; n++) {
    const sent = await page.request.post(`http://127.0.0.1:${APP_PORT}/create/post`, {
      headers: asStudent,
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

  // A notification arrives live: the badge changes, and the pages scrolled through stay.
  const newest = page.getByRole("listitem").filter({ has: mine(POSTS) });
  const postHref = (await newest.locator('a[href^="/post/"]').first().getAttribute("href")) ?? "";
  // Watched from the page: were the last page's posts ever taken off it?
  await page.evaluate((text) => {
    const watched = window as unknown as { scrolledPostsLost?: boolean };
    watched.scrolledPostsLost = false;
    // '#1' and not '#10'…'#17'.
    const oldest = new RegExp(`${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?!\\d)`);
    new MutationObserver(() => {
      if (!oldest.test(document.body.textContent ?? "")) watched.scrolledPostsLost = true;
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  }, `${tag} #1`);
  const commenterContext = await browser.newContext({ baseURL: hostUrl(CAMPUS) });
  await createStudent(commenterContext, { campus: CAMPUS, label: "scroll-commenter" });
  const commenter = await commenterContext.newPage();
  await commentOnPost(commenter, postHref.slice("/post/".length), "Is this still available?");
  await commenterContext.close();
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /Notifications/ }),
  ).toHaveAccessibleName(/unread/, { timeout: 15_000 });
  expect(
    await page.evaluate(() => (window as unknown as { scrolledPostsLost?: boolean }).scrolledPostsLost),
  ).toBe(false);
  await expect(mine(1)).toBeVisible();
  for (let n = 1; n <= POSTS; n++) await expect(mine(n), `post ${n} still once`).toHaveCount(1);

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
