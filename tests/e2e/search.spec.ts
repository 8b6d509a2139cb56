import { expect, type Page, test } from "@playwright/test";
import { hostUrl, PRIVATE_CAMPUS } from "./support/env";
import { hydrated, loadWithScriptsHeld, toast } from "./support/page";
import { createStudent } from "./support/student";

// Decision 0190: search on MIT's campus, where no other spec posts. Each run makes its own word, so
// runs on one database never see each other's posts.

function uniqueWord(): string {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  let word = "zq";
  for (let i = 0; i < 8; i++) word += letters[Math.floor(Math.random() * letters.length)];
  return word;
}

async function searchFromHeader(page: Page, text: string) {
  const box = page.getByRole("combobox", { name: "Search MIT Buy / Sell" });
  await box.fill(text);
  await box.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/search\\?q=${encodeURIComponent(text).replace(/%20/g, "\\+")}`));
}

test("a new post is found from the header on Latest and Media, with a typo, and its seller on People", async ({
  page,
}) => {
  const word = uniqueWord();
  const seller = await createStudent(page.context(), {
    campus: "mit",
    label: "search-seller",
    // The first name is kept whole (the last as an initial): the run's own word finds this seller.
    fullName: `${word[0]?.toUpperCase()}${word.slice(1)} Fridgeman`,
    posts: [
      { text: `Mini fridge ${word}, pick up at Baker House`, photos: 1, category: "household" },
      { text: `Desk lamp ${word}`, category: "furniture" },
    ],
  });
  const [fridgeId, lampId] = seller.postIds;
  await createStudent(page.context(), { campus: "mit", label: "search-buyer" });

  await page.goto(hostUrl("mit", "/home"));
  await hydrated(page);
  await searchFromHeader(page, `mini fridge ${word}`);
  const results = page.getByRole("list", { name: `Posts matching mini fridge ${word}` });
  await expect(results.locator(`a[href="/post/${fridgeId}"]`).first()).toBeVisible();
  await expect(results.locator(`a[href="/post/${lampId}"]`)).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Latest" })).toHaveAttribute("aria-current", "page");

  // spec 2 §2 Media tab: the post with a photo, in the grid.
  await page.getByRole("link", { name: "Media" }).click();
  await expect(page).toHaveURL(/show=media/);
  const grid = page.getByRole("list", { name: `Photos and videos matching mini fridge ${word}` });
  await expect(grid.getByRole("listitem")).toHaveCount(1);

  // One typo in 'fridge' still finds it.
  await page.goto(hostUrl("mit", `/search?q=${encodeURIComponent(`mini frige ${word}`)}`));
  await expect(
    page
      .getByRole("list", { name: /^Posts matching/ })
      .locator(`a[href="/post/${fridgeId}"]`)
      .first(),
  ).toBeVisible();

  // People: the seller by name.
  await page.getByRole("link", { name: "People" }).click();
  await page.goto(hostUrl("mit", `/search?q=${word}&show=people`));
  await expect(page.getByRole("link", { name: new RegExp(word, "i") })).toHaveAttribute(
    "href",
    `/${seller.username}`,
  );

  // Nothing found.
  await page.goto(hostUrl("mit", `/search?q=${word}xyzzy`));
  await expect(page.getByRole("heading", { name: `No results for "${word}xyzzy"` })).toBeVisible();
  await expect(page.getByText("Try searching for something else")).toBeVisible();
});

test("filters change the address and the results", async ({ page }) => {
  const word = uniqueWord();
  const seller = await createStudent(page.context(), {
    campus: "mit",
    label: "search-filters",
    posts: [
      { text: `Bookshelf ${word}`, category: "furniture" },
      { text: `Textbook ${word}`, category: "books/movies/music" },
    ],
  });
  const [shelfId, bookId] = seller.postIds;
  await page.goto(hostUrl("mit", `/search?q=${word}`));
  await hydrated(page);
  const results = page.getByRole("list", { name: `Posts matching ${word}` });
  await expect(results.locator(`a[href="/post/${shelfId}"]`).first()).toBeVisible();
  await expect(results.locator(`a[href="/post/${bookId}"]`).first()).toBeVisible();

  await page.getByRole("combobox", { name: "Category" }).selectOption("furniture");
  await expect(page).toHaveURL(/category=furniture/);
  await expect(results.locator(`a[href="/post/${shelfId}"]`).first()).toBeVisible();
  await expect(results.locator(`a[href="/post/${bookId}"]`)).toHaveCount(0);
  // The address alone gives the same results (a shared search).
  await page.goto(page.url());
  await expect(page.getByRole("combobox", { name: "Category" })).toHaveValue("furniture");
  await expect(results.locator(`a[href="/post/${bookId}"]`)).toHaveCount(0);
});

test("the header's dropdown lists recent searches; one can be removed, and Clear all empties them", async ({
  page,
}) => {
  await createStudent(page.context(), { campus: "mit", label: "search-history" });
  const first = uniqueWord();
  const second = uniqueWord();
  await page.goto(hostUrl("mit", "/home"));
  await hydrated(page);
  await searchFromHeader(page, first);
  await expect(page.getByRole("heading", { name: `No results for "${first}"` })).toBeVisible();
  await searchFromHeader(page, second);
  await expect(page.getByRole("heading", { name: `No results for "${second}"` })).toBeVisible();

  await page.goto(hostUrl("mit", "/home"));
  await hydrated(page);
  const box = page.getByRole("combobox", { name: "Search MIT Buy / Sell" });
  const suggestRequest = /\/search\/data\?kind=suggest/;
  const firstAnswer = page.waitForResponse(suggestRequest).then((response) => response.json());
  await box.focus();
  const recent = page.getByRole("group", { name: "My Recent" });
  await expect(recent.getByRole("option")).toHaveText([second, first]);
  await expect(box).toHaveAttribute("aria-expanded", "true");

  // Keyboard: Down highlights the first suggestion, Escape closes the list.
  await box.press("ArrowDown");
  await expect(box).toHaveAttribute("aria-activedescendant", /.+/);
  await box.press("Escape");
  await expect(box).toHaveAttribute("aria-expanded", "false");

  // Suggestions the server read before the removal, arriving after it, leave the removed one out.
  const readBeforeRemoval = await firstAnswer;
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(suggestRequest, async (route) => {
    await released;
    await route.fulfill({ json: readBeforeRemoval });
  });
  const asked = page.waitForRequest(suggestRequest);
  await box.press("ArrowDown");
  await asked;
  await recent.getByRole("button", { name: `Remove ${first}` }).click();
  await expect(toast(page, "Recent Search Removed")).toBeVisible();
  const lateAnswer = page.waitForResponse(suggestRequest);
  release();
  await lateAnswer;
  await page.unroute(suggestRequest);
  await expect(recent.getByRole("option")).toHaveText([second]);

  await page.getByRole("button", { name: "Clear all" }).click();
  await expect(toast(page, "Search History Cleared")).toBeVisible();
  await page.reload();
  await hydrated(page);
  await page.getByRole("combobox", { name: "Search MIT Buy / Sell" }).focus();
  await expect(page.getByRole("group", { name: "My Recent" })).toHaveCount(0);
});

test("words typed into the header's box before the page's scripts run are the ones searched", async ({
  page,
}) => {
  await createStudent(page.context(), { campus: "mit", label: "search-early" });
  const before = uniqueWord();
  const typed = uniqueWord();
  const box = page.getByRole("combobox", { name: "Search MIT Buy / Sell" });
  // The box shows the last search; the student types over it while the scripts still load.
  await loadWithScriptsHeld(page, hostUrl("mit", `/search?q=${before}`), async () => {
    await expect(box).toHaveValue(before);
    await box.fill(typed);
  });
  await expect(box).toHaveValue(typed);
  await box.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/search\\?q=${typed}`));
  await expect(page.getByRole("heading", { name: `No results for "${typed}"` })).toBeVisible();
});

test("a visitor on a private campus gets the sign-in modal with reason search", async ({ page }) => {
  await page.goto(hostUrl(PRIVATE_CAMPUS, "/search?q=desk"));
  await hydrated(page);
  await expect(page.getByText("Log in or sign up to search.")).toBeVisible();
});
