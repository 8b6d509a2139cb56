import { type BrowserContext, expect as baseExpect, test } from "@playwright/test";
import { seriousAxeViolations } from "./support/axe";
import { APP_PORT, hostUrl } from "./support/env";
import { hydrated, toast } from "./support/page";
import { createStudent } from "./support/student";

// Decisions 0548 and 0549 (docs/product/staff-and-moderation.md 'Standing and appeals', 'The public
// log'): a student's standing page, an appeal, and the campus's public log without names.

test.use({ actionTimeout: 20_000 });
test.describe.configure({ timeout: 120_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

const SCREENSHOTS = process.env.STUDENT_SCREENSHOTS_DIR;

/** POST /dev/test-strike as the student of `context` on `slug`'s host: a moderator's action, as it leaves its rows. */
async function giveStrike(context: BrowserContext, slug: string, body: Record<string, unknown>) {
  const cookies = await context.cookies(hostUrl(slug));
  const response = await fetch(`http://127.0.0.1:${APP_PORT}/dev/test-strike`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      cookie: cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; "),
    },
    body: JSON.stringify(body),
  });
  if (response.status !== 201)
    throw new Error(`POST /dev/test-strike: ${response.status} ${await response.text()}`);
}

test("a student in good standing finds the page from the account overview; a visitor is sent away", async ({
  browser,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await createStudent(context, { label: "good-standing" });
  await page.goto("/settings/account");
  await hydrated(page);
  await page.getByRole("link", { name: "Account standing" }).click();
  await expect(page).toHaveURL(/\/settings\/account\/standing$/);
  await expect(page.getByRole("heading", { name: "Account standing", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Your account is in good standing" })).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);
  await context.close();

  const visitor = await browser.newPage();
  await visitor.goto("/settings/account/standing");
  await expect(visitor).not.toHaveURL(/standing/);
  await visitor.close();
});

test("a suspended student sees why and until when, appeals, and the campus's log shows the action without names", async ({
  browser,
}) => {
  const slug = "mit";
  const context = await browser.newContext();
  const page = await context.newPage();
  const student = await createStudent(context, {
    campus: slug,
    label: "struck",
    fullName: "Riley Struck",
    posts: [{ text: "Gift cards accepted for this brand new iPad, ship anywhere" }],
  });
  await giveStrike(context, slug, {
    action: "suspend",
    postId: student.postIds[0],
    reasonCode: "scam",
    days: 3,
    publicReason: "Asked buyers to pay with gift cards.",
    privateNote: "Reporter Alex sent screenshots of the chat.",
  });

  await page.goto(hostUrl(slug, "/settings/account/standing"));
  await hydrated(page);
  await expect(
    page.getByRole("heading", { name: /^Suspended until [A-Z][a-z]+ \d{1,2}, \d{4}$/ }),
  ).toBeVisible();
  const strike = page
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: "Suspension" }) });
  await expect(strike.getByText("Scam or fraud")).toBeVisible();
  await expect(strike.getByText("Asked buyers to pay with gift cards.")).toBeVisible();
  await expect(
    strike.getByText("Your listing: “Gift cards accepted for this brand new iPad, ship anywhere”"),
  ).toBeVisible();
  await expect(page.getByRole("heading", { name: "Removed posts and comments" })).toBeVisible();

  // The appeal: 29 characters are refused under the field, 30 and more are sent.
  await strike.getByText("Appeal", { exact: true }).first().click();
  const box = strike.getByRole("textbox", { name: "Appeal" });
  await box.fill("x".repeat(29));
  await expect(strike.getByText("29 / 2,000")).toBeVisible();
  await strike.getByRole("button", { name: "Send appeal" }).click();
  await expect(strike.getByText("Write at least 30 characters.")).toBeVisible();
  await box.fill("I never asked for gift cards; the buyer offered them and I said no.");
  expect(await seriousAxeViolations(page)).toEqual([]);
  if (SCREENSHOTS) {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.screenshot({ path: `${SCREENSHOTS}/standing-${width}.png`, fullPage: true });
    }
  }
  await strike.getByRole("button", { name: "Send appeal" }).click();
  await expect(toast(page, "Appeal sent. A moderator will review it.")).toBeVisible();
  await expect(strike.getByText("Appeal pending")).toBeVisible();
  await expect(strike.getByRole("button", { name: "Send appeal" })).toHaveCount(0);

  // The public log, from Trust and Safety, signed out: the action in words, no names, no note, no content.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(hostUrl(slug, "/settings/trust_and_safety"));
  await hydrated(visitor);
  await visitor.getByRole("link", { name: "moderation log" }).click();
  await expect(visitor).toHaveURL(/\/modlog$/);
  await expect(visitor.getByRole("heading", { name: "Moderation log", level: 1 })).toBeVisible();
  const entries = visitor.getByRole("list", { name: "Moderation actions" });
  await expect(entries.getByText("Suspended for 3 days")).toBeVisible();
  await expect(entries.getByText("a listing")).toBeVisible();
  await expect(entries.getByText("Scam or fraud: Asked buyers to pay with gift cards.")).toBeVisible();
  await expect(entries.getByText("By Campus moderators")).toBeVisible();
  const text = await visitor.content();
  for (const secret of ["Riley", "Reporter Alex", "iPad", student.username])
    expect(text).not.toContain(secret);
  expect(await seriousAxeViolations(visitor)).toEqual([]);
  // The footer under the right-hand widget links it too.
  await expect(
    visitor.getByRole("navigation", { name: "Footer" }).getByRole("link", { name: "Moderation log" }),
  ).toBeVisible();
  if (SCREENSHOTS) {
    for (const width of [390, 1280]) {
      await visitor.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await visitor.screenshot({ path: `${SCREENSHOTS}/modlog-${width}.png`, fullPage: true });
    }
  }
  await visitorContext.close();
  await context.close();
});

test("a campus with no moderation yet shows the log's empty state", async ({ page }) => {
  await page.goto(hostUrl("harvard", "/modlog"));
  await expect(page.getByRole("heading", { name: "Nothing to report yet" })).toBeVisible();
});
