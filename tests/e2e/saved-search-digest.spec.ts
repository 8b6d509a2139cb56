import { mkdirSync } from "node:fs";
import { type Browser, expect as baseExpect, type Page, test } from "@playwright/test";
import { seriousAxeViolations } from "./support/axe";
import { type ClockApp, startClockApp } from "./support/clock-app";
import { hydrated, toast } from "./support/page";
import { type SmtpSink, startSmtpSink } from "./support/smtp-sink";

// Decision 0630: a Daily saved search gets one e-mail after 08:00 in the campus's zone, listing a
// listing two searches found once; the mail's one-click unsubscribe stops only its search. Its own
// app on the test clock (decision 0481) and its own SMTP sink.

const DAY_S = 86_400;
const SHOTS = "/tmp/h-digest-shots";
const WIDTHS = [390, 1280];
const expect = baseExpect.configure({ timeout: 20_000 });

let clock: ClockApp;
let sink: SmtpSink;

test.describe.configure({ mode: "serial" });
test.use({ actionTimeout: 20_000 });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  mkdirSync(SHOTS, { recursive: true });
  sink = await startSmtpSink();
  clock = await startClockApp("saved-search-digest", { SMTP_URL: sink.url });
});

test.afterAll(async () => {
  await clock?.stop();
  await sink?.close();
});

function digestsTo(address: string) {
  return sink.messages.filter(
    (mail) =>
      mail.to.includes(address.toLowerCase()) && /new listings? for your saved searches/.test(mail.subject),
  );
}

async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function saveSearch(page: Page, q: string): Promise<void> {
  await page.goto(`${clock.origin}/search?q=${encodeURIComponent(q)}`);
  await hydrated(page);
  await page.getByRole("button", { name: "Save search" }).click();
  await expect(toast(page, "Search saved")).toBeVisible();
}

function row(page: Page, q: string) {
  return page.getByRole("listitem").filter({ hasText: `“${q}”` });
}

async function cadenceOf(page: Page, q: string): Promise<string> {
  const checked = row(page, q).getByRole("radio", { checked: true });
  return ((await checked.getAttribute("value")) ?? "").toString();
}

/** A seller's listing, published through createPost (so it is matched), with a photo. */
async function sellerPosts(browser: Browser, label: string, text: string): Promise<void> {
  const context = await browser.newContext();
  await clock.createStudent(context, { label, fullName: "Sam Seller", posts: [{ text, photos: 1 }] });
  await context.close();
}

test("a Daily search sends one digest listing the listing once; its one-click unsubscribe stops only that search", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const buyer = await clock.createStudent(context, { label: "digest-buyer", fullName: "Dana Daily" });

  await saveSearch(page, "desk");
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 844 });
    await page.screenshot({ path: `${SHOTS}/save-control-${width}.png` });
  }
  await saveSearch(page, "lamp");

  // Both searches to Daily, each with its own Save alerts.
  await page.goto(`${clock.origin}/settings/searches`);
  await hydrated(page);
  for (const q of ["desk", "lamp"]) {
    await row(page, q)
      .getByRole("radio", { name: /^Daily/ })
      .check();
    await row(page, q)
      .getByRole("button", { name: new RegExp(`Save alerts for ${q}`) })
      .click();
    await expect(toast(page, "Alerts updated")).toBeVisible();
  }
  await page.reload();
  expect(await cadenceOf(page, "desk")).toBe("daily");
  expect(await cadenceOf(page, "lamp")).toBe("daily");

  const title = `Oak desk lamp ${Date.now()}`;
  await sellerPosts(browser, "digest-seller", title);
  // Matched (the matcher is woken by the post): both searches count a new match.
  await until(async () => {
    await page.reload();
    return (await page.getByText("1 new match").count()) === 2;
  }, "the matches");
  expect(await seriousAxeViolations(page)).toEqual([]);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 844 });
    // From the top: a full-page shot of a scrolled page draws the fixed header mid-page.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/settings-searches-${width}.png`, fullPage: true });
  }
  expect(digestsTo(buyer.email)).toHaveLength(0);

  // A day later it is past 08:00 on the campus since the match: one digest (moving the clock wakes the jobs).
  await clock.advance(DAY_S);
  await until(() => digestsTo(buyer.email).length > 0, "the digest");
  const [digest] = digestsTo(buyer.email);
  if (!digest) throw new Error("no digest");
  expect(digest.subject).toBe("1 new listing for your saved searches");
  expect(digest.text.split(title)).toHaveLength(2);
  expect(digest.text).toContain("matches: desk, lamp");
  expect(digest.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
  const oneClick = (digest.headers["list-unsubscribe"] ?? "").replace(/^<|>$/g, "");
  expect(oneClick).toContain("/notifications/unsubscribe/search?token=");

  // The mail's HTML, rendered in a page.
  const mailPage = await context.newPage();
  for (const width of WIDTHS) {
    await mailPage.setViewportSize({ width, height: 844 });
    await mailPage.setContent(digest.html, { waitUntil: "load" });
    await mailPage.screenshot({ path: `${SHOTS}/digest-mail-${width}.png`, fullPage: true });
  }
  await mailPage.close();

  // A GET of the one-click address (a scanner following it) changes nothing.
  const opened = await fetch(oneClick);
  expect(opened.status).toBe(200);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(oneClick);
  await expect(page.getByRole("heading", { name: "Stop alerts for “desk”?" })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/unsubscribe-page-390.png` });
  await page.goto(`${clock.origin}/settings/searches`);
  expect(await cadenceOf(page, "desk")).toBe("daily");

  // RFC 8058's POST: only that search goes Off.
  const posted = await fetch(oneClick, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
  });
  expect(posted.status).toBe(200);
  await page.reload();
  expect(await cadenceOf(page, "desk")).toBe("off");
  expect(await cadenceOf(page, "lamp")).toBe("daily");

  // The next listing both would have found reaches the next digest through lamp alone.
  const second = `Desk lamp with bulb ${Date.now()}`;
  await sellerPosts(browser, "digest-seller-2", second);
  await until(async () => {
    await page.reload();
    return (await row(page, "lamp").getByText("2 new matches").count()) === 1;
  }, "the second match");
  await clock.advance(DAY_S);
  await until(() => digestsTo(buyer.email).length > 1, "the second digest");
  const next = digestsTo(buyer.email)[1];
  expect(next?.text).toContain(second);
  expect(next?.text).toContain("matches: lamp");
  expect(next?.text).not.toContain("matches: desk");
  expect(next?.text).not.toContain(title);
  expect(digestsTo(buyer.email)).toHaveLength(2);
  await context.close();
});
