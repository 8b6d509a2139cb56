import { expect, test } from "@playwright/test";
import { type ClockApp, startClockApp } from "./support/clock-app";
import { hydrated, toast } from "./support/page";

// Decision 0481 (docs/contract.md 'Test clock'): POST /dev/clock moves the app's time; a listing
// unchanged for 60 days then asks its owner 'Still available?' (decision 0171), read from the
// clock when the page is rendered, with no job in between. Its own app (support/clock-app.ts).

const DAY_S = 86_400;
let clock: ClockApp;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  clock = await startClockApp("test-clock");
});

test.afterAll(async () => {
  await clock?.stop();
});

test("moving the clock past a listing's 60 days shows its owner 'Still available?', and Renew ends it", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await clock.createStudent(page.context(), { label: "clock-seller" });
  const title = `Desk lamp ${Date.now()}`;

  await page.goto(`${clock.origin}/home`);
  await hydrated(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Create Post" }).click();
  const dialog = page.getByRole("dialog", { name: "Create Post" });
  await expect(dialog.getByRole("textbox", { name: "Post text" })).toBeFocused();
  await page.keyboard.type(title);
  const details = dialog.getByRole("group", { name: "Listing details (optional)" });
  await details.getByRole("textbox", { name: "Price" }).fill("15");
  await dialog.getByRole("button", { name: "Post", exact: true }).click();
  await expect(toast(page, "Posted! Your post was sent.")).toBeVisible();

  const card = page.locator("article").filter({ hasText: title });
  await card.getByRole("link", { name: /^Comment/ }).click();
  await expect(page).toHaveURL(/\/post\/[0-9a-f-]{36}$/);
  const postUrl = page.url();
  await hydrated(page);
  await expect(page.getByText(title)).toBeVisible();
  await expect(page.getByRole("region", { name: "Still available?" })).toHaveCount(0);

  // 59 days: not yet.
  const before = await clock.now();
  await clock.advance(59 * DAY_S);
  await page.goto(postUrl);
  await expect(page.getByText(title)).toBeVisible();
  await expect(page.getByRole("region", { name: "Still available?" })).toHaveCount(0);

  // Two more: past the 60 days.
  const after = await clock.advance(2 * DAY_S);
  expect(after.getTime() - before.getTime()).toBeGreaterThanOrEqual(61 * DAY_S * 1000);
  await page.goto(postUrl);
  await hydrated(page);
  const stillAvailable = page.getByRole("region", { name: "Still available?" });
  await expect(stillAvailable).toBeVisible();
  await expect(
    stillAvailable.getByText("This listing is hidden from the feed until you renew it."),
  ).toBeVisible();

  // Renewed at the moved clock's time: fresh again.
  await stillAvailable.getByRole("button", { name: "Renew" }).click();
  await expect(toast(page, "Renewed! Your listing is back at the top of the feed.")).toBeVisible();
  await expect(page.getByRole("region", { name: "Still available?" })).toHaveCount(0);
});
