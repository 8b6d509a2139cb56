import { mkdirSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { hostUrl } from "./support/env";
import { linkFrom, waitForMail } from "./support/mailbox";
import { hydrated, toast } from "./support/page";
import { createStudent } from "./support/student";

// Decisions 0570 and 0571: a student downloads their data (the job prepares it, the mailed link
// works once and only for them) and deletes their account; their profile is then 'This page
// doesn't exist.' and the other side of their conversation shows 'Deleted account'. On a campus
// no other spec reads (FSU).

const CAMPUS = "fsu";
const SHOTS = "/tmp/shots-data";
test.use({ baseURL: hostUrl(CAMPUS) });

test("a student downloads their data, then deletes their account", async ({ browser }) => {
  test.setTimeout(150_000);
  mkdirSync(SHOTS, { recursive: true });
  const leaverContext = await browser.newContext({ baseURL: hostUrl(CAMPUS) });
  const otherContext = await browser.newContext({ baseURL: hostUrl(CAMPUS) });
  const words = `Bike lock ${Date.now()}`;
  const leaver = await createStudent(leaverContext, {
    campus: CAMPUS,
    label: "data-leaver",
    posts: [{ text: `${words}, barely used`, photos: 1 }],
  });
  const other = await createStudent(otherContext, { campus: CAMPUS, label: "data-other" });
  const page = await leaverContext.newPage();
  const otherPage = await otherContext.newPage();

  // The other student writes first; the leaver answers.
  await otherPage.goto(`/messages/new?to=${leaver.username}`);
  await hydrated(otherPage);
  await otherPage.getByRole("textbox", { name: "Message" }).fill("Is the bike lock still there?");
  await otherPage.getByRole("button", { name: "Send", exact: true }).click();
  await expect(toast(otherPage, "New Conversation Started")).toBeVisible();
  await expect(otherPage).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
  const chatPath = new URL(otherPage.url()).pathname;
  await page.goto(chatPath);
  await hydrated(page);
  await page.getByRole("textbox", { name: "Message" }).fill("Yes, come by at noon");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByText("Yes, come by at noon")).toBeVisible();

  // From the account settings to the data page; ask for the archive.
  await page.goto("/settings/account");
  await page.getByRole("link", { name: "Your data: download or delete" }).click();
  await expect(page).toHaveURL(/\/settings\/account\/data$/);
  await hydrated(page);
  await page.getByRole("button", { name: "Download my data" }).click();
  await expect(
    toast(page, "We're preparing your archive. We'll e-mail you a link when it's ready."),
  ).toBeVisible();
  await expect(page.getByText("Your archive is being prepared.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Download my data" })).toBeDisabled();

  // The job prepares it and mails the link (it runs every 10 seconds).
  const mail = await waitForMail(
    leaver.email,
    (each) => each.subject === "Your data is ready to download",
    60_000,
  );
  const link = linkFrom(mail, "/settings/account/data/download");
  // Fetched by the browsers themselves (Node does not resolve *.localhost): another account gets
  // the ordinary 404, and the link still works for its owner after; once only.
  const fetchLink = (from: Page) =>
    from.evaluate(async (url) => {
      const response = await fetch(url, { redirect: "manual" });
      const bytes = new Uint8Array(await response.arrayBuffer());
      return {
        status: response.status,
        type: response.headers.get("content-type"),
        cache: response.headers.get("cache-control"),
        start: String.fromCharCode(bytes[0] ?? 0, bytes[1] ?? 0),
        size: bytes.length,
      };
    }, link);
  await otherPage.goto("/settings/account");
  expect((await fetchLink(otherPage)).status).toBe(404);
  const download = await fetchLink(page);
  expect(download).toMatchObject({ status: 200, type: "application/zip", start: "PK" });
  expect(download.cache).toContain("no-store");
  expect(download.size).toBeGreaterThan(1000);
  expect((await fetchLink(page)).status).toBe(404);
  await page.reload();
  await expect(page.getByText(/You downloaded the archive you asked for on/)).toBeVisible();

  // The page at a phone's and a desktop's width.
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: `${SHOTS}/account-data-${width}.png`, fullPage: true });
  }

  // Delete: a wrong password first, then the right one.
  await hydrated(page);
  await page.getByLabel("Your password").fill("not-my-password");
  await page.getByRole("checkbox", { name: /I understand/ }).check();
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByText("That password isn't right.")).toBeVisible();
  await page.getByLabel("Your password").fill(leaver.password);
  await page.getByRole("checkbox", { name: /I understand/ }).check();
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(toast(page, "Your account has been deleted.")).toBeVisible();
  await expect(page).toHaveURL(/\/home$/);

  // Their profile no longer exists; they are signed out.
  await page.goto(`/${leaver.username}`);
  await expect(page.getByText("This page doesn't exist.")).toBeVisible();
  await page.goto("/settings/account/data");
  await expect(page).not.toHaveURL(/\/settings\/account\/data/);

  // The other side keeps the conversation, from 'Deleted account', with no link and no reply.
  await otherPage.goto(chatPath);
  await hydrated(otherPage);
  await expect(otherPage.getByRole("heading", { name: "Deleted account" })).toBeVisible();
  await expect(
    otherPage.getByRole("list", { name: "Messages" }).getByText("Yes, come by at noon"),
  ).toBeVisible();
  await expect(otherPage.getByText("This account has been deleted. You can't reply.")).toBeVisible();
  // The name is no link (the inbox's entry links to the conversation itself, never to a profile).
  await expect(
    otherPage.locator("a", { has: otherPage.getByRole("heading", { name: "Deleted account" }) }),
  ).toHaveCount(0);
  await expect(otherPage.locator(`a[href="/${leaver.username}"]`)).toHaveCount(0);
  // Their messages are read, not liked or reported (decision 0571).
  await expect(otherPage.getByRole("button", { name: "Like message" })).toHaveCount(0);
  await expect(otherPage.getByRole("button", { name: /More options for/ })).toHaveCount(0);
  await otherPage.screenshot({ path: `${SHOTS}/deleted-account-chat-1280.png` });
  await otherPage.goto("/messages");
  await expect(otherPage.getByRole("list", { name: "Chats" }).getByText("Deleted account")).toBeVisible();
  expect(other.id).not.toBe(leaver.id);

  await leaverContext.close();
  await otherContext.close();
});
