import { expect as baseExpect, type Page, test } from "@playwright/test";
import { seriousAxeViolations } from "./support/axe";
import { type ClockApp, startClockApp } from "./support/clock-app";
import { hydrated, toast } from "./support/page";
import { type SmtpSink, startSmtpSink } from "./support/smtp-sink";
import { createStudent } from "./support/student";

// Decisions 0550–0553 (docs/product/operating-the-site.md): the operator console's dashboard, jobs
// and mail, for site admins only. The failed mail is made by the app's own paths: an app of this
// spec's own on the test clock (decision 0481) sends through an SMTP sink that refuses every
// message, a password-reset request queues a mail, and the clock is moved through its ten
// attempts' back-off until the worker gives up.

test.use({ actionTimeout: 20_000 });
test.describe.configure({ timeout: 240_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

const SCREENSHOTS = process.env.ADMIN_CONSOLE_SCREENSHOTS_DIR ?? "/tmp/shots-ops";
const CONSOLE_PATHS = ["/admin", "/admin/jobs", "/admin/mail"];

/** The outbox's back-off after `attempts` failed attempts (server/mail/outbox.ts retryDelayMs). */
const retryDelayMs = (attempts: number) => Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 30 * 60_000);

/** A time as the console shows it (app/components/admin/console-time.tsx). */
const consoleTime = (date: Date) =>
  `${new Intl.DateTimeFormat("en-US", {
    timeZone: "UTC",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    second: "2-digit",
  }).format(date)} UTC`;

test("a student and a campus moderator get the 404 page on /admin, /admin/jobs and /admin/mail, and their forms do nothing", async ({
  browser,
  request,
}) => {
  for (const role of [{ label: "console-student" }, { label: "console-moderator", moderator: true }]) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await createStudent(context, role);
    for (const path of CONSOLE_PATHS) {
      const answer = await page.goto(path);
      expect(answer?.status(), `${role.label} at ${path}`).toBe(404);
      await expect(page.getByRole("heading", { name: "Error 404" })).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Operator console" })).toHaveCount(0);
    }
    const origin = new URL(page.url()).origin;
    const run = await page.request.post("/admin/jobs", {
      form: { intent: "run-job", job: "expire-ads" },
      headers: { origin },
    });
    expect(run.status()).toBe(404);
    const retry = await page.request.post("/admin/mail", {
      form: { intent: "retry-mail", mailId: "00000000-0000-4000-8000-000000000000" },
      headers: { origin },
    });
    expect(retry.status()).toBe(404);
    await context.close();
  }
  for (const path of CONSOLE_PATHS) expect((await request.get(path)).status()).toBe(404);
});

test.describe("the console on an app of its own", () => {
  test.describe.configure({ mode: "serial" });
  let sink: SmtpSink;
  let clock: ClockApp;
  test.beforeAll(async () => {
    // A second app starting on a busy machine takes a while.
    test.setTimeout(180_000);
    sink = await startSmtpSink();
    sink.rejecting = true;
    clock = await startClockApp("admin-console", { SMTP_URL: sink.url });
  });
  test.afterAll(async () => {
    test.setTimeout(60_000);
    await clock?.stop();
    await sink?.close();
  });

  async function until(done: () => boolean, what: string) {
    const deadline = Date.now() + 15_000;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  test("a site admin sees the problems, runs a job now and sees the run, and retries a failed mail", async ({
    browser,
  }) => {
    const adminContext = await browser.newContext();
    const page = await adminContext.newPage();
    await clock.createStudent(adminContext, {
      label: "console-admin",
      fullName: "Sam Admin",
      siteAdmin: true,
    });
    const studentContext = await browser.newContext();
    const student = await clock.createStudent(studentContext, {
      label: "console-forgot",
      fullName: "Fran Forgetful",
    });
    await studentContext.close();

    // A fresh site: no problem yet.
    await page.goto(`${clock.origin}/admin`);
    await hydrated(page);
    await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
    await expect(page.getByRole("heading", { name: "No problems", level: 2 })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Operator console" })).toBeVisible();
    expect(await seriousAxeViolations(page)).toEqual([]);

    // A visitor asks for a password reset: the mail is queued, and the sink refuses it.
    const visitor = await browser.newContext();
    const forgot = await visitor.newPage();
    await forgot.goto(`${clock.origin}/forgotpassword`);
    await hydrated(forgot);
    await forgot.getByLabel("Email", { exact: true }).fill(student.email);
    await forgot.getByRole("button", { name: "Send Reset Link" }).click();
    await until(() => sink.rejected >= 1, "the first attempt");

    // Through the back-off of its ten attempts (5 s, 10 s, 20 s …), within the link's hour.
    for (let attempt = 2; attempt <= 10; attempt++) {
      await clock.advance(retryDelayMs(attempt - 1) / 1000 + 1);
      await until(() => sink.rejected >= attempt, `attempt ${attempt}`);
      if (attempt === 7) {
        // Over five minutes of the clock since it was queued: the dashboard says so.
        await page.goto(`${clock.origin}/admin`);
        await hydrated(page);
        await expect(page.getByText(/The oldest queued mail has waited \d+ minutes\./)).toBeVisible();
        await expect(page.getByRole("link", { name: "Queued mail" })).toBeVisible();
        for (const width of [390, 1280]) {
          await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
          await page.screenshot({ path: `${SCREENSHOTS}/admin-dashboard-${width}.png`, fullPage: true });
        }
        await page.setViewportSize({ width: 1280, height: 800 });
      }
    }
    await visitor.close();
    sink.rejecting = false;

    // Jobs: Run now, and the run is recorded.
    await page.goto(`${clock.origin}/admin/jobs`);
    await hydrated(page);
    await expect(page.getByRole("heading", { name: "Jobs", level: 1 })).toBeVisible();
    const prune = page
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: "prune-job-runs" }) });
    await prune.getByRole("button", { name: "Run now: prune-job-runs" }).click();
    await expect(toast(page, "prune-job-runs ran and succeeded.")).toBeVisible();
    // The page reloads its data after the action: the last start is this run's, by the app's clock.
    const now = (await clock.now()).getTime();
    const lastStart = prune.getByRole("definition").first();
    await expect(lastStart).toContainText("succeeded");
    const shown = (await lastStart.textContent()) ?? "";
    expect([0, 1, 2, 3, 4, 5].some((back) => shown.includes(consoleTime(new Date(now - back * 1000))))).toBe(
      true,
    );
    expect(await seriousAxeViolations(page)).toEqual([]);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      // Decision 0574: on a phone the bar scrolls its current section into view.
      await expectCurrentSectionInView(page, "Jobs");
      await page.screenshot({ path: `${SCREENSHOTS}/admin-jobs-${width}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // Mail: the failed reset mail, retried, goes out.
    await page.goto(`${clock.origin}/admin/mail?state=failed`);
    await hydrated(page);
    await expect(page.getByRole("heading", { name: "Failed mail", level: 2 })).toBeVisible();
    const row = page.getByRole("listitem").filter({ hasText: student.email });
    await expect(row.getByText(/Reset your .* password/)).toBeVisible();
    await expect(row.getByText("10 attempts")).toBeVisible();
    expect(await seriousAxeViolations(page)).toEqual([]);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.screenshot({ path: `${SCREENSHOTS}/admin-mail-${width}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await row.getByRole("button", { name: /^Retry the mail/ }).click();
    await expect(toast(page, "Mail queued again. It goes out within seconds.")).toBeVisible();
    await until(
      () => sink.messages.some((mail) => mail.to.includes(student.email.toLowerCase())),
      "the retried mail",
    );

    await page.goto(`${clock.origin}/admin/mail?state=sent`);
    await expect(page.getByRole("listitem").filter({ hasText: student.email })).toBeVisible();
    // The student's history: subjects only.
    await hydrated(page);
    await page.getByLabel("E-mail or username", { exact: true }).fill(student.email);
    await page.getByRole("button", { name: "Find", exact: true }).click();
    const history = page.getByRole("region", { name: "A student's mail" });
    await expect(history.getByText(/Reset your .* password/)).toBeVisible();
    await expect(page.getByText(/reset-password\?token|\/reset-password/)).toHaveCount(0);
    await adminContext.close();
  });
});

/** Decision 0574: the console bar's current section lies wholly inside the bar's visible part. */
async function expectCurrentSectionInView(page: Page, label: string) {
  const bar = page.getByRole("navigation", { name: "Operator console" });
  const current = bar.getByRole("link", { name: label, exact: true });
  await expect(current).toHaveAttribute("aria-current", "page");
  await expect
    .poll(async () => {
      const [outer, inner] = await Promise.all([bar.boundingBox(), current.boundingBox()]);
      if (!outer || !inner) return false;
      return inner.x >= outer.x - 1 && inner.x + inner.width <= outer.x + outer.width + 1;
    })
    .toBe(true);
}
