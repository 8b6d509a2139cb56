import { expect as baseExpect, type Page, test } from "@playwright/test";
import { seriousAxeViolations } from "./support/axe";
import { type ClockApp, startClockApp } from "./support/clock-app";
import { APP_PORT } from "./support/env";
import { mailTo, uniqueEmail, waitForCode } from "./support/mailbox";
import { hydrated, toast } from "./support/page";
import { createStudent } from "./support/student";

// Decisions 0680–0682, docs/product/student-badge.md: the school step asks the class year and the
// badge then reads it on the student's profile and on a post they make; a student verified before
// the year was asked is asked by a banner (not a wall) and can dismiss it; on the test clock
// (decision 0481) the badge reads 'Alum' after September 30 of the class year.

test.use({ actionTimeout: 20_000 });
test.describe.configure({ timeout: 120_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

/** This spec's own clock app: past the ports env.ts gives the others (APP_PORT + 13 is the last). */
const BADGE_CLOCK_PORT = Number(process.env.E2E_BADGE_CLOCK_PORT ?? APP_PORT + 14);
const SHOTS = process.env.BADGE_SCREENSHOTS_DIR;

/** Two years on: the badge lapses (12 months) before the class graduates, so it has a lapse date. */
const CLASS_OF = new Date().getUTCFullYear() + 2;
const gradYearSelect = (page: Page) => page.getByRole("combobox", { name: "Graduation year" });

function unique(what: string): string {
  return `${what} ${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
}

async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("a student verifies their school e-mail choosing the year; their profile and their post show 'Class of'", async ({
  page,
}) => {
  // E-mail verified, photo and bio (so they may post), no school yet.
  const student = await createStudent(page.context(), { label: "badge-school", school: false });
  await page.goto("/settings/account/school_email");
  await hydrated(page);
  await expect(page.getByRole("heading", { name: "Join your campus" })).toBeVisible();
  await expect(gradYearSelect(page).locator("option")).toHaveText([
    "Choose a year",
    ...Array.from({ length: 8 }, (_, n) => String(CLASS_OF - 2 + n)),
  ]);
  const school = uniqueEmail("badge", "ou.edu");
  await page.getByRole("textbox", { name: "School email" }).fill(school);
  await shoot(page, "school-step");
  await gradYearSelect(page).selectOption(String(CLASS_OF));
  await page.getByRole("button", { name: "Send PIN", exact: true }).click();
  await expect(page).toHaveURL(/\/settings\/account\/verify_school_email\?/);
  await page.getByRole("textbox", { name: "PIN" }).fill(await waitForCode(school));
  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(page).toHaveURL(/\/home$/);
  await expect(toast(page, "Welcome to OU Buy / Sell!")).toBeVisible();
  // The year is known: no year banner.
  await expect(page.getByText("What’s your class year?")).toHaveCount(0);

  // A post they make.
  const words = unique("Desk lamp");
  await hydrated(page);
  await page.getByText("What are you selling?").first().click();
  const composer = page.getByRole("form", { name: "Create Post" });
  await composer.getByRole("textbox", { name: "Post text" }).click();
  await page.keyboard.type(words);
  await composer.getByRole("button", { name: "Post", exact: true }).click();
  await expect(toast(page, "Posted! Your post was sent.")).toBeVisible();
  await page.goto("/home");
  const card = page
    .getByRole("article", { name: `Post by ${student.firstName} R.` })
    .filter({ hasText: words });
  await expect(card).toContainText(`@${student.username} · Class of ${CLASS_OF}`);
  await expect(card.getByTitle(`Verified student · Class of ${CLASS_OF}`)).toBeVisible();

  await page.goto(`/${student.username}`);
  await expect(page.locator(".profile-badge")).toHaveText(`Verified student · Class of ${CLASS_OF}`);
  await shoot(page, "profile-badge");

  // Decision 0682: the school page now offers the badge's renewal, saying when it lapses.
  await page.goto("/settings/account/school_email");
  const renewal = page.getByRole("region", { name: "Verified student badge" });
  await expect(renewal).toContainText(`Verified student · Class of ${CLASS_OF} until`);
  await expect(renewal).toContainText(school);
  await shoot(page, "school-renewal");

  // Renewing: a new PIN to the same address, the year chosen again; the code page confirms it.
  await hydrated(page);
  const mailsBefore = (await mailTo(school)).length;
  await renewal.getByRole("combobox", { name: "Graduation year" }).selectOption(String(CLASS_OF + 1));
  await renewal.getByRole("button", { name: "Renew badge" }).click();
  await expect(page).toHaveURL(/\/settings\/account\/verify_school_email\?.*renew=1/);
  await expect(page.getByText("Entering it renews your verified student badge for 12 months.")).toBeVisible();
  await expect.poll(async () => (await mailTo(school)).length).toBeGreaterThan(mailsBefore);
  await page.getByRole("textbox", { name: "PIN" }).fill(await waitForCode(school));
  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(toast(page, "Your verified student badge is renewed")).toBeVisible();
  await page.goto(`/${student.username}`);
  await expect(page.locator(".profile-badge")).toHaveText(`Verified student · Class of ${CLASS_OF + 1}`);
});

test("a verified student without a year is asked by a banner, not a wall, and it sets the year", async ({
  page,
}) => {
  const student = await createStudent(page.context(), { label: "badge-banner", gradYear: null });
  await page.goto("/home");
  const banner = page.getByRole("region", { name: /What’s your class year\?/ });
  await expect(banner).toBeVisible();
  // Not a wall: the feed is there beside it.
  await expect(page.getByText("What are you selling?").first()).toBeVisible();
  await shoot(page, "year-banner");
  await hydrated(page);
  expect(await seriousAxeViolations(page)).toEqual([]);
  await banner.getByRole("combobox").selectOption(String(CLASS_OF));
  await banner.getByRole("button", { name: "Save year", exact: true }).click();
  await expect(toast(page, "Class year saved")).toBeVisible();
  await expect(page).toHaveURL(/\/home$/);
  await expect(banner).toHaveCount(0);
  await page.goto(`/${student.username}`);
  await expect(page.locator(".profile-badge")).toHaveText(`Verified student · Class of ${CLASS_OF}`);
});

test("the banner's 'Not now' hides it; the year page works without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const student = await createStudent(context, { label: "badge-dismiss", gradYear: null });
  await page.goto(`http://localhost:${APP_PORT}/home`);
  const banner = page.getByRole("region", { name: /What’s your class year\?/ });
  await expect(banner).toBeVisible();
  await banner.getByRole("button", { name: "Not now" }).click();
  await expect(page).toHaveURL(/\/home$/);
  await expect(banner).toHaveCount(0);
  await page.reload();
  await expect(banner).toHaveCount(0);

  // The page asks still, and saves the year without a script.
  await page.goto(`http://localhost:${APP_PORT}/settings/account/graduation_year`);
  await gradYearSelect(page).selectOption(String(CLASS_OF));
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page).toHaveURL(/\/settings\/account$/);
  await page.goto(`http://localhost:${APP_PORT}/${student.username}`);
  await expect(page.locator(".profile-badge")).toHaveText(`Verified student · Class of ${CLASS_OF}`);
  await context.close();
});

test.describe("on the test clock", () => {
  let clock: ClockApp;
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    clock = await startClockApp("student-badge", {}, BADGE_CLOCK_PORT);
  });
  test.afterAll(async () => {
    await clock?.stop();
  });

  test("the badge reads 'Alum' after September 30 of the class year", async ({ browser }) => {
    const now = await clock.now();
    const classOf = now.getUTCFullYear() + 1;
    const alumContext = await browser.newContext();
    const alum = await clock.createStudent(alumContext, { label: "badge-alum", gradYear: classOf });
    const page = await alumContext.newPage();
    await page.goto(`${clock.origin}/${alum.username}`);
    await expect(page.locator(".profile-badge")).toHaveText(`Verified student · Class of ${classOf}`);
    await alumContext.close();

    // To October 1 of the class year, noon UTC (the end of September 30 everywhere), and a minute.
    const october = Date.UTC(classOf, 9, 1, 12, 1);
    await clock.advance(Math.ceil((october - now.getTime()) / 1000));
    // A viewer signed in after the move (the first session has long expired).
    const viewerContext = await browser.newContext();
    await clock.createStudent(viewerContext, { label: "badge-viewer", gradYear: classOf + 1 });
    const viewer = await viewerContext.newPage();
    await viewer.goto(`${clock.origin}/${alum.username}`);
    await expect(viewer.locator(".profile-badge")).toHaveText("Alum");
    await viewerContext.close();
  });
});
