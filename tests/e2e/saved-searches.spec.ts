import { expect as baseExpect, test } from "@playwright/test";
import { seriousAxeViolations } from "./support/axe";
import { hydrated, toast } from "./support/page";
import { createStudent } from "./support/student";

// Decision 0620 (saved searches): 'Save search' on the results, then /settings/searches.

test.use({ actionTimeout: 20_000 });
test.describe.configure({ timeout: 120_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

test("a student saves a search once, renames it, opens it and deletes it", async ({ browser }) => {
  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await createStudent(context, { label: `saver-${viewport.width}` });

    await page.goto("/search?q=desk+lamp&max_price=40");
    await hydrated(page);
    await page.getByRole("button", { name: "Save search" }).click();
    await expect(toast(page, "Search saved")).toBeVisible();
    await expect(page.getByRole("link", { name: "Saved searches", exact: true })).toBeVisible();
    // The same search, typed differently, is the one already saved.
    await page.goto("/search?max_price=40&q=Desk+Lamp");
    await expect(page.getByRole("link", { name: "Saved searches", exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "Save search" })).toHaveCount(0);
    await page.screenshot({ path: `/tmp/saved-search-control-${viewport.width}.png` });

    await page.getByRole("link", { name: "Saved searches", exact: true }).click();
    await expect(page).toHaveURL(/\/settings\/searches$/);
    await hydrated(page);
    await expect(page.getByText("desk lamp", { exact: true })).toBeVisible();
    await expect(page.getByText("“desk lamp” · up to $40")).toBeVisible();
    await page.getByLabel("Name").fill("Lamp for my desk");
    await page.getByRole("button", { name: "Save name" }).click();
    await expect(toast(page, "Name saved")).toBeVisible();
    await page.reload();
    await expect(page.getByText("Lamp for my desk", { exact: true })).toBeVisible();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: `/tmp/saved-searches-${viewport.width}.png`, fullPage: true });

    // Open shows the search's results.
    await page.getByRole("button", { name: "Open" }).click();
    await expect(page).toHaveURL(/\/search\?q=desk\+lamp&max_price=40&since=/);

    await page.goto("/settings/searches");
    await hydrated(page);
    await page.getByRole("button", { name: /Delete/ }).click();
    await expect(toast(page, "Saved search deleted")).toBeVisible();
    await page.reload();
    await expect(page.getByText("You haven't saved a search yet.")).toBeVisible();
    await context.close();
  }
});

test("a visitor gets no save control and is sent away from /settings/searches", async ({ page }) => {
  await page.goto("/search?q=lamp");
  await expect(page.getByRole("button", { name: "Save search" })).toHaveCount(0);
  await page.goto("/settings/searches");
  await expect(page).not.toHaveURL(/settings\/searches/);
});
