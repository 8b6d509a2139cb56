import { expect, test } from "@playwright/test";
import { hostUrl } from "./support/env";
import { hydrated, toast } from "./support/page";
import { createStudent } from "./support/student";

// Decision 0170–0172 (beyond the spec): a listing with a price and a condition, marked
// reserved then sold from its card, leaves the feed but stays on the profile; a Wanted post from
// the full-page composer at 390 px. On Oklahoma State's campus, whose feed no other spec reads.

const CAMPUS = "okstate";
test.use({ baseURL: hostUrl(CAMPUS) });

test("a post with a price and condition shows them; reserved, then sold, it leaves the feed and stays on the profile", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const seller = await createStudent(page.context(), { campus: CAMPUS, label: "seller" });
  const title = `Mini fridge ${Date.now()}`;

  await page.goto("/home");
  await hydrated(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Create Post" }).click();
  const dialog = page.getByRole("dialog", { name: "Create Post" });
  await expect(dialog.getByRole("textbox", { name: "Post text" })).toBeFocused();
  await page.keyboard.type(title);
  const details = dialog.getByRole("group", { name: "Listing details (optional)" });
  await details.getByRole("textbox", { name: "Price" }).fill("40");
  await details.getByText("Open to offers", { exact: true }).click();
  await expect(details.getByRole("radio", { name: "Open to offers" })).toBeChecked();
  await details.getByRole("combobox", { name: "Condition" }).selectOption("Like new");
  await dialog.getByRole("button", { name: "Post", exact: true }).click();
  await expect(toast(page, "Posted! Your post was sent.")).toBeVisible();

  const card = page.locator("article").filter({ hasText: title });
  await expect(card.getByText("$40 · Open to offers")).toBeVisible();
  await expect(card.getByText("Like new")).toBeVisible();

  // Another student sees it too (signed out here: the campus is open to visitors in the harness).
  const visitor = await browser.newPage({ baseURL: hostUrl(CAMPUS) });
  await visitor.goto("/home");
  await expect(
    visitor.locator("article").filter({ hasText: title }).getByText("$40 · Open to offers"),
  ).toBeVisible();
  await visitor.close();

  // Reserved from the owner's own card.
  await card.getByRole("button", { name: "Mark as reserved" }).click();
  await expect(toast(page, "Marked as reserved.")).toBeVisible();
  await expect(card.getByText("Reserved", { exact: true })).toBeVisible();

  // Sold from the post's menu on its page.
  await card.getByRole("link", { name: /^Comment/ }).click();
  await expect(page).toHaveURL(/\/post\/[0-9a-f-]{36}$/);
  const postUrl = page.url();
  await hydrated(page);
  await page.getByRole("button", { name: "More options for this post" }).click();
  await page.getByRole("menuitem", { name: "Mark as sold" }).click();
  await expect(toast(page, "Marked as sold.")).toBeVisible();
  await expect(page.getByText("Sold", { exact: true })).toBeVisible();

  // Gone from the feed's default view; 'Show sold' brings it back, labelled.
  await page.goto("/home");
  await hydrated(page);
  await expect(page.getByRole("switch", { name: "Show sold" })).toHaveAttribute("aria-checked", "false");
  await expect(page.locator("article").filter({ hasText: title })).toHaveCount(0);
  await page.getByRole("switch", { name: "Show sold" }).click();
  await expect(page).toHaveURL(/[?&]sold=1/);
  await expect(page.getByRole("switch", { name: "Show sold" })).toHaveAttribute("aria-checked", "true");
  const soldCard = page.locator("article").filter({ hasText: title });
  await expect(soldCard.getByText("Sold", { exact: true })).toBeVisible();

  // Still on the seller's profile, and at its link.
  await page.goto(`/${seller.username}`);
  await expect(
    page.locator("article").filter({ hasText: title }).getByText("Sold", { exact: true }),
  ).toBeVisible();
  await page.goto(postUrl);
  await expect(page.getByText(title)).toBeVisible();
});

test("a Wanted post from the full-page composer at 390 px shows its Wanted label; 'Free' keeps free listings", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await createStudent(page.context(), { campus: CAMPUS, label: "wanted" });
  const wanted = `Looking for a desk chair ${Date.now()}`;

  await page.goto("/create/post?goBack=home");
  await hydrated(page);
  await page.getByRole("textbox", { name: "Post text" }).click();
  await page.keyboard.type(wanted);
  const details = page.getByRole("group", { name: "Listing details (optional)" });
  await details.getByText("Wanted", { exact: true }).click();
  await expect(details.getByRole("radio", { name: "Wanted" })).toBeChecked();
  await details.getByRole("textbox", { name: "Budget" }).fill("25");
  await page.getByRole("button", { name: "Post", exact: true }).click();
  await expect(toast(page, "Posted! Your post was sent.")).toBeVisible();

  await page.goto("/home");
  const card = page.locator("article").filter({ hasText: wanted });
  await expect(card.getByText("Wanted", { exact: true })).toBeVisible();
  await expect(card.getByText("$25")).toBeVisible();

  // A free listing, then the 'Free' filter: only it.
  const free = `Free textbooks ${Date.now()}`;
  await page.goto("/create/post?goBack=home");
  await hydrated(page);
  await page.getByRole("textbox", { name: "Post text" }).click();
  await page.keyboard.type(free);
  await page
    .getByRole("group", { name: "Listing details (optional)" })
    .getByText("Free", { exact: true })
    .click();
  await page.getByRole("button", { name: "Post", exact: true }).click();
  await expect(toast(page, "Posted! Your post was sent.")).toBeVisible();

  await page.goto("/home?free=1");
  await expect(page.getByRole("switch", { name: "Free" })).toHaveAttribute("aria-checked", "true");
  await expect(
    page.locator("article").filter({ hasText: free }).getByText("Price: Free", { exact: true }),
  ).toBeVisible();
  await expect(page.locator("article").filter({ hasText: wanted })).toHaveCount(0);
});
