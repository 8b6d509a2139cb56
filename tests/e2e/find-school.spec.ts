import { expect, test } from "@playwright/test";
import { hostUrl } from "./support/env";
import { hydrated } from "./support/page";
import { signUp } from "./support/student";

// Decision 0072, spec 1 §2 'Find Your School' and spec 2 §2 'Search'.

test.describe("Find Your School on the generic instance", () => {
  test("searches as you type and shows each hit's city, state, country and name", async ({ page }) => {
    await page.goto(hostUrl("www", "/search_schools"));
    await hydrated(page);
    const box = page.getByRole("searchbox", { name: "Search schools" });
    await expect(box).toHaveAttribute("placeholder", "Search schools");
    await box.pressSequentially("texas", { delay: 40 });

    const results = page.locator("#school-results");
    const ut = results.getByRole("link", { name: /The University of Texas at Austin/ });
    const tamu = results.getByRole("link", { name: /Texas A&M University/ });
    await expect(ut).toBeVisible();
    await expect(tamu).toBeVisible();
    await expect(ut).toContainText("UT");
    await expect(ut).toContainText("Austin, TX, US");
    await expect(tamu).toContainText("TAMU");
    await expect(tamu).toContainText("College Station, TX, US");
    // Only schools that match: no Florida here.
    await expect(results.getByRole("link", { name: /Florida/ })).toHaveCount(0);
    // Typing did not reload the page: the text is still in the box.
    await expect(box).toHaveValue("texas");
  });

  test("works without JavaScript as a plain form", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(hostUrl("www", "/search_schools"));
    await page.getByRole("searchbox", { name: "Search schools" }).fill("cambridge");
    await page.getByRole("searchbox", { name: "Search schools" }).press("Enter");
    await expect(page).toHaveURL(/\/search_schools\?q=cambridge$/);
    await expect(page.getByRole("link", { name: /Harvard University/ })).toBeVisible();
    await expect(page.getByRole("link", { name: /Massachusetts Institute of Technology/ })).toBeVisible();
    await context.close();
  });

  test("a visitor choosing a school sees its modal with 'Join Campus', which asks to sign in", async ({
    page,
  }) => {
    await page.goto(hostUrl("www", "/search_schools?q=texas"));
    await hydrated(page);
    await page.getByRole("link", { name: /Texas A&M University/ }).click();

    const modal = page.getByRole("dialog", { name: "TAMU" });
    await expect(modal).toBeVisible();
    await expect(modal.getByRole("img", { name: "TAMU logo" })).toBeVisible();
    await expect(modal.getByText("Texas A&M University")).toBeVisible();
    const join = modal.getByRole("link", { name: "Join Campus" });
    await expect(join).toBeVisible();

    await join.click();
    const signIn = page.getByRole("dialog", { name: "Log In / Sign Up" });
    await expect(signIn).toBeVisible();
    await expect(signIn.getByText("Log in or sign up to join your campus.")).toBeVisible();
    await expect(signIn.getByRole("link", { name: "Log In", exact: true })).toHaveAttribute("href", "/login");
  });

  test("a campus that does not exist gives 'Something went wrong'", async ({ page }) => {
    await page.goto(hostUrl("www", "/search_schools?campus=nowhere"));
    await expect(page.getByRole("dialog", { name: "Something went wrong" })).toBeVisible();
  });

  test("a signed-in member without a verified school is sent to the school e-mail form", async ({ page }) => {
    // A verified e-mail, no school yet (where the app goes next is the school rule's business).
    await signUp(page, "find-school");
    await page.goto(hostUrl(null, "/search_schools?q=tamu"));
    await hydrated(page);
    await page.getByRole("link", { name: /Texas A&M University/ }).click();
    await expect(
      page.getByRole("dialog", { name: "TAMU" }).getByRole("link", { name: "Join Campus" }),
    ).toHaveAttribute("href", "/settings/account/school_email?campus=tamu");
  });

  test("the generic instance's bottom bar links Find Your School", async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 800 } });
    const page = await context.newPage();
    await page.goto(hostUrl("www", "/home"));
    await page
      .getByRole("navigation", { name: "Tabs" })
      .getByRole("link", { name: "Search schools" })
      .click();
    await expect(page).toHaveURL(/\/search_schools$/);
    await expect(page.getByRole("heading", { name: "Find Your School" })).toBeVisible();
    await context.close();
  });
});
