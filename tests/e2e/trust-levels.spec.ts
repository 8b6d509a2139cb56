import { mkdirSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import type { TestStudent } from "../../server/dev/test-student";
import { APP_PORT, hostUrl } from "./support/env";
import { hydrated, toast } from "./support/page";
import { createStudent } from "./support/student";

// docs/product/trust-levels.md (decisions 0660–0663) and docs/product/safety.md (decision 0654):
// a new account starts 10 conversations in a day and the eleventh is refused with what lifts it;
// the student reads their level on /settings/account/trust; a site admin reads it with its reasons
// on the console's student page and locks it; a site admin adds a safety rule that then stops a
// message. On UT's campus, where no other spec starts conversations.

const CAMPUS = "ut";
const SHOTS = "/tmp/shots-trust";
test.use({ baseURL: hostUrl(CAMPUS) });
test.describe.configure({ mode: "serial" });

const LIMIT_MESSAGE =
  "New accounts can start 10 conversations a day. This lifts after your first completed trade or 7 days.";

/** A student made without a browser (a recipient), on the campus. */
async function recipient(label: string): Promise<TestStudent> {
  const response = await fetch(`http://127.0.0.1:${APP_PORT}/dev/test-student`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ campus: CAMPUS, label, ageDays: 30 }),
  });
  if (response.status !== 201) throw new Error(`POST /dev/test-student: ${response.status}`);
  return (await response.json()) as TestStudent;
}

async function startConversation(page: Page, to: TestStudent, text: string): Promise<void> {
  await page.goto(`/messages/new?to=${encodeURIComponent(to.username)}`);
  await hydrated(page);
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("button", { name: "Send", exact: true }).click();
}

async function shoot(page: Page, name: string): Promise<void> {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
}

let newcomer: TestStudent;

test("a new account's eleventh new conversation in a day is refused with what lifts it", async ({ page }) => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS, { recursive: true });
  newcomer = await createStudent(page.context(), { campus: CAMPUS, label: "trust-new", ageDays: 0 });
  const people = await Promise.all(Array.from({ length: 11 }, (_, index) => recipient(`trust-to-${index}`)));
  for (const [index, person] of people.slice(0, 10).entries()) {
    await startConversation(page, person, `Hi! Is your lamp still for sale? (${index + 1})`);
    await expect(page).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
  }
  const eleventh = people[10] as TestStudent;
  await startConversation(page, eleventh, "Hi! Is your desk still for sale?");
  await expect(toast(page, LIMIT_MESSAGE)).toBeVisible();
  await expect(toast(page, LIMIT_MESSAGE)).toHaveText(new RegExp(LIMIT_MESSAGE.replace(/[.()]/g, "\\$&")));
  await expect(page).toHaveURL(/\/messages\/new\?to=/);
  // The text stays to send later; no conversation was started.
  await expect(page.getByRole("textbox", { name: "Message" })).toHaveValue(
    "Hi! Is your desk still for sale?",
  );
  await page.screenshot({ path: `${SHOTS}/limit-refused-1280.png` });

  // The settings row and page: the level and what lifts it.
  await page.goto("/settings/account");
  await expect(page.getByRole("link", { name: /Trust level/ })).toHaveAttribute(
    "href",
    "/settings/account/trust",
  );
  await expect(page.getByTestId("trust-level-row")).toHaveText("New");
  await page.getByRole("link", { name: /Trust level/ }).click();
  await expect(page).toHaveURL(/\/settings\/account\/trust$/);
  await expect(page.getByTestId("trust-level")).toHaveText("New");
  await expect(page.getByText("You can start 10 new conversations a day")).toBeVisible();
  await expect(page.getByText("This lifts after your first completed trade or 7 days.")).toBeVisible();
  await shoot(page, "settings-trust");
});

test("a site admin reads the level and its reasons on the student's page and locks it", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL: hostUrl(CAMPUS) });
  const page = await context.newPage();
  try {
    await createStudent(context, { campus: CAMPUS, label: "trust-admin", siteAdmin: true, ageDays: 400 });
    await page.goto(`/admin/students/${newcomer.id}`);
    await hydrated(page);
    const panel = page.getByRole("region", { name: "Trust level" });
    await expect(panel.getByTestId("console-trust-level")).toHaveText("0 · New");
    await expect(panel.getByText("Next: Basic")).toBeVisible();
    await expect(panel.getByText("A first completed trade or 7 days on Campus Buy Sell")).toBeVisible();
    await expect(panel.getByText("E-mail and school address verified")).toBeVisible();
    await shoot(page, "console-trust");

    // Reason required, then the lock at Basic.
    await panel.getByLabel("Level", { exact: true }).selectOption("1");
    await panel.getByLabel("Reason (staff only)").fill("A club selling tickets this week");
    await panel.getByRole("button", { name: "Save level" }).click();
    await expect(toast(page, "Trust level locked at Basic.")).toBeVisible();
    await page.reload();
    await expect(panel.getByTestId("console-trust-level")).toHaveText("1 · Basic");
    await expect(panel.getByText(/^Locked /)).toBeVisible();
    await expect(page.getByText("Locked the trust level")).toBeVisible();
    await shoot(page, "console-trust-locked");

    // Unlocked, the recount gives New again.
    await panel.getByLabel("Level", { exact: true }).selectOption("unlock");
    await panel.getByLabel("Reason (staff only)").fill("The event is over");
    await panel.getByRole("button", { name: "Save level" }).click();
    await expect(toast(page, "Trust level unlocked and recounted.")).toBeVisible();
    await page.reload();
    await expect(panel.getByTestId("console-trust-level")).toHaveText("0 · New");
  } finally {
    await context.close();
  }
});

test("a student gets the 404 page on /admin/safety and the console's student page", async ({ page }) => {
  await page.context().clearCookies();
  await createStudent(page.context(), { campus: CAMPUS, label: "trust-nosy" });
  for (const path of ["/admin/safety", `/admin/students/${newcomer.id}`]) {
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    await expect(page.getByText("This page doesn't exist.").first()).toBeVisible();
  }
});

test("a site admin adds a safety rule on /admin/safety, and it stops the next message", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const word = `quokka${Date.now().toString(36)}`;
  const adminContext = await browser.newContext({ baseURL: hostUrl(CAMPUS) });
  const senderContext = await browser.newContext({ baseURL: hostUrl(CAMPUS) });
  try {
    const admin = await adminContext.newPage();
    await createStudent(adminContext, {
      campus: CAMPUS,
      label: "safety-admin",
      siteAdmin: true,
      ageDays: 400,
    });
    await admin.goto("/admin/safety");
    await hydrated(admin);
    await expect(admin.getByRole("heading", { name: "Safety rules", level: 1 })).toBeVisible();
    await expect(admin.getByRole("heading", { name: "verification-code" })).toBeVisible();
    await expect(admin.getByRole("link", { name: "Safety", exact: true })).toHaveAttribute(
      "aria-current",
      "page",
    );

    const form = admin.getByRole("region", { name: "Add a rule" });
    await form.getByLabel("Name").fill(`e2e-${word}`);
    await form.getByLabel("Applies to").selectOption("chat");
    await form.getByLabel("Action").selectOption("block");
    // A bad pattern says why and adds nothing.
    await form.getByLabel("Pattern").fill('{"kind":"regex","source":"(a+)+$"}');
    await form.getByLabel("Message").fill(`Not sent: ${word} tickets are a known scam.`);
    await form.getByRole("button", { name: "Add rule" }).click();
    await expect(form.getByText(/The pattern's kind is terms, detector or any/)).toBeVisible();
    await expect(admin.getByRole("heading", { name: `e2e-${word}` })).toHaveCount(0);
    await shoot(admin, "admin-safety-error");

    await form.getByLabel("Pattern").fill(`${word} tickets`);
    await form.getByRole("button", { name: "Add rule" }).click();
    await expect(toast(admin, "Rule added.")).toBeVisible();
    const card = admin
      .getByRole("listitem")
      .filter({ has: admin.getByRole("heading", { name: `e2e-${word}` }) });
    await expect(card).toContainText("Added");
    await expect(card).toContainText("On");
    await shoot(admin, "admin-safety");
    // Decision 0574: at a laptop's width the console's bar shows every section, Safety included.
    const bar = admin.getByRole("navigation", { name: "Operator console" });
    expect(await bar.evaluate((nav) => nav.scrollWidth <= nav.clientWidth)).toBe(true);

    // The next message with the phrase is not sent, and says why.
    const sender = await senderContext.newPage();
    await createStudent(senderContext, { campus: CAMPUS, label: "safety-sender", ageDays: 30 });
    const to = await recipient("safety-to");
    await startConversation(sender, to, `I have ${word} tickets for you, pay now`);
    await expect(toast(sender, `Not sent: ${word} tickets are a known scam.`)).toBeVisible();

    // Switched off, the same message goes through.
    await card.getByRole("button", { name: `Switch off: e2e-${word}` }).click();
    await expect(toast(admin, "Rule switched off.")).toBeVisible();
    await expect(card).toContainText("Off");
    await startConversation(sender, to, `I have ${word} tickets for you, pay now`);
    await expect(sender).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
  } finally {
    await adminContext.close();
    await senderContext.close();
  }
});

test("a sender warned to 3 students is reported automatically: /mod shows why, where reporters' reasons go", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const senderContext = await browser.newContext({ baseURL: hostUrl(CAMPUS) });
  const adminContext = await browser.newContext({ baseURL: hostUrl(CAMPUS) });
  try {
    const sender = await senderContext.newPage();
    await createStudent(senderContext, {
      campus: CAMPUS,
      label: "flag-sender",
      fullName: "Flora Flagg",
      ageDays: 30,
    });
    const people = await Promise.all([0, 1, 2].map((index) => recipient(`flag-to-${index}`)));
    for (const person of people) {
      await startConversation(sender, person, "Still available? I can zelle you first to hold it");
      await expect(sender).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
    }
    const admin = await adminContext.newPage();
    await createStudent(adminContext, { campus: CAMPUS, label: "flag-admin", siteAdmin: true, ageDays: 400 });
    await admin.goto(`/mod?campus=${CAMPUS}`);
    await hydrated(admin);
    const row = admin
      .getByRole("listitem")
      .filter({ hasText: "Flora" })
      .filter({ has: admin.getByTestId("auto-reason") });
    await expect(row.getByTestId("auto-reason")).toContainText(
      "Automatic: Safety flag: asked 3 or more students",
    );
    await expect(row).not.toContainText("0 reporters");
    await shoot(admin, "mod-queue-automatic");
    await row.getByRole("link").first().click();
    await expect(admin).toHaveURL(/\/mod\/items\//);
    await expect(admin.getByTestId("auto-reason")).toContainText(
      "Automatic: Safety flag: asked 3 or more students",
    );
    await shoot(admin, "mod-item-automatic");
  } finally {
    await senderContext.close();
    await adminContext.close();
  }
});
