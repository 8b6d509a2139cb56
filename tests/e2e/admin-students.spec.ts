import { mkdirSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { hostUrl } from "./support/env";
import { hydrated } from "./support/page";
import { createStudent } from "./support/student";

// Decisions 0560, 0561, 0563 (docs/product/operating-the-site.md): a site admin finds a student on
// the operator console, suspends them with a reason and reads the log line on their card; refunds
// a paid ad once (a second submission of the same form changes nothing); a student and a campus
// moderator get the 404 page on every console page. On MIT's campus, which no feed-reading spec uses.

const CAMPUS = "mit";
const SCREENSHOTS = "/tmp/shots-people";
test.use({ baseURL: hostUrl(CAMPUS) });
test.describe.configure({ mode: "serial" });

const CONSOLE_PAGES = ["/admin/students", "/admin/campuses", "/admin/campuses/mit", "/admin/payments"];

/** The page at a phone's width and a laptop's, into /tmp/shots-people (looked at by hand). */
async function shoot(page: Page, name: string): Promise<void> {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SCREENSHOTS}/${name}-${width}.png`, fullPage: true });
  }
}

/** Posts a form from the page, as a form (or a replay of one) would; returns the status. */
async function postForm(page: Page, path: string, fields: Record<string, string>): Promise<number> {
  return page.evaluate(
    async ({ path, fields }) =>
      (await fetch(path, { method: "POST", body: new URLSearchParams(fields) })).status,
    { path, fields },
  );
}

/** Boosts the seller's post for 4 days and pays through the test checkout (as ads.spec.ts does). */
async function boostAndPay(page: Page, postId: string): Promise<void> {
  await page.goto(`/post/${postId}`);
  await hydrated(page);
  await page.getByRole("link", { name: "Boost for $5" }).click();
  await expect(page.getByRole("heading", { name: "Boost Post" })).toBeVisible();
  await page.getByLabel("Website URL").fill("https://www.example.com");
  await page.getByLabel("Button label").selectOption("Shop Now");
  await page.getByLabel("Ad title").fill("Console refund");
  await page.getByRole("button", { name: "Pay $20.00" }).click();
  await expect(page.getByText("TEST MODE – no card is charged")).toBeVisible();
  await hydrated(page);
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: "Pay $20.00" }).click();
  await expect(page).toHaveURL(new RegExp(`/post/${postId}$`));
}

test("the admin finds a student, suspends them with a reason and sees the log line on their card", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  mkdirSync(SCREENSHOTS, { recursive: true });
  await createStudent(page.context(), { campus: CAMPUS, label: "console-admin", siteAdmin: true });
  const studentContext = await browser.newContext({ baseURL: hostUrl(CAMPUS) });
  const student = await createStudent(studentContext, {
    campus: CAMPUS,
    label: "console-student",
    fullName: "Casey Console",
    posts: [{ text: "Dorm fridge, works fine" }],
  });

  await page.goto("/admin/students");
  await hydrated(page);
  await expect(page.getByRole("heading", { name: "Students", level: 1 })).toBeVisible();
  await page.getByLabel("E-mail, username or id").fill(student.email.toUpperCase());
  await page.getByRole("button", { name: "Find" }).click();
  await expect(page.getByRole("link", { name: new RegExp(`@${student.username}`) })).toBeVisible();
  await shoot(page, "admin-students");
  await page.getByRole("link", { name: new RegExp(`@${student.username}`) }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/students/${student.id}$`));
  await expect(page.getByRole("heading", { name: /^Casey /, level: 1 })).toBeVisible();
  await hydrated(page);

  const suspend = page.getByRole("form", { name: "Suspend" });
  await suspend.getByLabel("How long").selectOption("7");
  await suspend.getByLabel("Reason category").selectOption("spam");
  // A reason is required: the browser keeps the form until one is written.
  await suspend.getByRole("button", { name: "Suspend" }).click();
  await expect(page.getByText("Suspended for 7 days")).toHaveCount(0);
  await suspend.getByLabel(/^Reason \(/).fill("Posted the same fridge twelve times.");
  await suspend.getByRole("button", { name: "Suspend" }).click();

  const log = page.getByRole("region", { name: "Moderation log" });
  await expect(log.getByText("Suspended for 7 days")).toBeVisible();
  await expect(log.getByText("Posted the same fridge twelve times.")).toBeVisible();
  await expect(page.getByText(/^Suspended until /)).toBeVisible();

  await shoot(page, "admin-student-card");
  await page.goto("/admin/campuses");
  await expect(page.getByRole("heading", { name: "Campuses", level: 1 })).toBeVisible();
  await shoot(page, "admin-campuses");
  await page.goto("/admin/campuses/mit");
  await expect(page.getByRole("heading", { name: "MIT", level: 1 })).toBeVisible();
  await shoot(page, "admin-campus");
  await studentContext.close();
});

test("the admin refunds a paid ad in full, and submitting the same form again changes nothing", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const sellerContext = await browser.newContext({ baseURL: hostUrl(CAMPUS) });
  const seller = await createStudent(sellerContext, {
    campus: CAMPUS,
    label: "console-seller",
    posts: [{ text: `Desk chair ${Date.now()}` }],
  });
  const sellerPage = await sellerContext.newPage();
  await boostAndPay(sellerPage, seller.postIds[0] as string);

  await createStudent(page.context(), { campus: CAMPUS, label: "console-refunder", siteAdmin: true });
  await page.goto("/admin/payments");
  await hydrated(page);
  const row = page
    .getByRole("listitem")
    .filter({ has: page.getByRole("link", { name: `@${seller.username}` }) });
  const form = row.getByRole("form", { name: "Refund Console refund" });
  const adId = await form.locator('input[name="adId"]').inputValue();
  const key = await form.locator('input[name="idempotencyKey"]').inputValue();
  await form.getByRole("button", { name: "Refund in full ($20.00)" }).click();
  await expect(page.getByText("Refunded $20.00.").first()).toBeVisible();
  await expect(row.getByText("refunded $20.00")).toBeVisible();

  // The same form again (a double click that got through, or a replay): the first refund, nothing new.
  // From the page (Node does not resolve *.localhost; the browser does).
  const again = await postForm(page, "/admin/payments", {
    intent: "refund-ad",
    adId,
    idempotencyKey: key,
    mode: "full",
  });
  expect(again).toBe(200);
  await page.reload();
  const refunds = page
    .getByRole("region", { name: "Payments and refunds" })
    .getByText(/^Refund by the site's staff/);
  await expect(refunds).toHaveCount(1);
  await shoot(page, "admin-payments");
  await expect(
    page.getByRole("region", { name: "Payments and refunds" }).getByText("−$20.00", { exact: false }),
  ).toHaveCount(1);
  await sellerContext.close();
});

test("a student and a campus moderator get the 404 page on the console, and its forms do nothing", async ({
  browser,
}) => {
  const studentContext = await browser.newContext({ baseURL: hostUrl(CAMPUS) });
  const student = await createStudent(studentContext, { campus: CAMPUS, label: "console-outsider" });
  const moderatorContext = await browser.newContext({ baseURL: hostUrl(CAMPUS) });
  await createStudent(moderatorContext, { campus: CAMPUS, label: "console-moderator", moderator: true });
  for (const context of [studentContext, moderatorContext]) {
    const page = await context.newPage();
    for (const path of [...CONSOLE_PAGES, `/admin/students/${student.id}`]) {
      const answer = await page.goto(path);
      expect(answer?.status(), path).toBe(404);
      await expect(page.getByText("This page doesn't exist.")).toBeVisible();
    }
    await page.goto("/");
    expect(
      await postForm(page, `/admin/students/${student.id}`, { intent: "verify-email", reason: "no" }),
    ).toBe(404);
  }
  await studentContext.close();
  await moderatorContext.close();
});
