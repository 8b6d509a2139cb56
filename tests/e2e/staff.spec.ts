import { expect as baseExpect, test } from "@playwright/test";
import { seriousAxeViolations } from "./support/axe";
import { hydrated, toast } from "./support/page";
import { createStudent } from "./support/student";

// Decision 0520 (docs/product/staff-and-moderation.md): a site admin appoints a campus moderator
// at /admin/moderators; everyone else gets the 404 page there, so nothing tells them it exists.

test.use({ actionTimeout: 20_000 });
test.describe.configure({ timeout: 120_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

const SCREENSHOTS = process.env.STAFF_SCREENSHOTS_DIR;

test("a site admin appoints an OU moderator by keyboard and removes them; the moderator gets a 404 there", async ({
  browser,
}) => {
  const adminContext = await browser.newContext();
  const page = await adminContext.newPage();
  await createStudent(adminContext, { label: "site-admin", fullName: "Sam Admin", siteAdmin: true });
  const futureContext = await browser.newContext();
  // Shown as 'Mona M.' (spec 1 §3: a last name is kept as its initial).
  const future = await createStudent(futureContext, { label: "future-mod", fullName: "Mona Moderator" });

  await page.goto("/admin/moderators");
  await hydrated(page);
  await expect(page.getByRole("heading", { name: "Campus moderators", level: 1 })).toBeVisible();
  // Other specs appoint moderators in the same database: the empty state ('No campus has a moderator
  // yet.') is the domain tests' to check; here only this student's rows.
  expect(await seriousAxeViolations(page)).toEqual([]);

  // The form's own messages first: nothing chosen, then an address nobody uses.
  await page.getByRole("button", { name: "Appoint", exact: true }).click();
  await expect(page.getByText("Choose a campus.")).toBeVisible();
  await expect(page.getByText("Enter the student's e-mail address.")).toBeVisible();
  await page.getByLabel("Campus", { exact: true }).selectOption("ou");
  await page.getByLabel("Student's e-mail", { exact: true }).fill("nobody-at-all@example.edu");
  await page.getByRole("button", { name: "Appoint", exact: true }).click();
  await expect(page.getByText("No account uses this e-mail address.")).toBeVisible();

  // By keyboard: the e-mail field, Tab to Appoint, Enter.
  const email = page.getByLabel("Student's e-mail", { exact: true });
  await email.fill(future.email);
  await email.press("Tab");
  await expect(page.getByRole("button", { name: "Appoint", exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(toast(page, "Mona M. now moderates OU.")).toBeVisible();
  const ou = page.getByRole("region", { name: "OU", exact: true });
  await expect(ou.getByText(future.email)).toBeVisible();

  // A campus moderator is staff, but this page is the site admins': a 404 for them too.
  const moderatorPage = await futureContext.newPage();
  expect((await moderatorPage.goto("/admin/moderators"))?.status()).toBe(404);
  await futureContext.close();

  if (SCREENSHOTS) {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.screenshot({ path: `${SCREENSHOTS}/admin-moderators-${width}.png`, fullPage: true });
    }
  }

  await ou.getByRole("button", { name: "Remove Mona M. as a moderator of OU" }).click();
  await expect(toast(page, "Moderator removed.")).toBeVisible();
  await expect(page.getByText(future.email)).toHaveCount(0);
  await adminContext.close();
});

test("a student and a signed-out visitor get the 404 page at /admin/moderators, and their forms do nothing", async ({
  browser,
  request,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await createStudent(context, { label: "not-staff" });
  const answer = await page.goto("/admin/moderators");
  expect(answer?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Error 404" })).toBeVisible();
  await expect(page.getByText("Campus moderators")).toHaveCount(0);

  // A form sent anyway changes nothing and says nothing more.
  const posted = await page.request.post("/admin/moderators", {
    form: { intent: "appoint-moderator", campusId: "ou", email: "someone@example.edu" },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(posted.status()).toBe(404);

  const visitor = await request.get("/admin/moderators");
  expect(visitor.status()).toBe(404);
  await context.close();
});
