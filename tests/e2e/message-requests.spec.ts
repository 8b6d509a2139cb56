import { mkdir } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";
import { seriousAxeViolations } from "./support/axe";
import { hostUrl } from "./support/env";
import { hydrated, toast } from "./support/page";
import { createStudent } from "./support/student";

// Decisions 0670 and 0671: a student who chose 'People I've traded with or written to first'
// finds a stranger's first message in Requests (live, counted there and nowhere else), opens it,
// and Accept moves it to the inbox. Two browser contexts, two students.

const CAMPUS = "unt";
test.use({ baseURL: hostUrl(CAMPUS) });

const SCREENSHOTS = process.env.REQUESTS_SCREENSHOTS ?? "test-results/message-requests";

function unique(what: string): string {
  return `${what} ${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
}

/** The Messages entry of the side navigation (wide) or the bottom bar (phones), with its badge. */
function messagesNav(page: Page) {
  return page
    .getByRole("navigation")
    .getByRole("link", { name: /^Messages(\s*, [\d+]+ unread)?$/ })
    .first();
}

async function shoot(page: Page, name: string) {
  await mkdir(SCREENSHOTS, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: `${SCREENSHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("with 'People I've traded with or written to first', a stranger's first message lands in Requests and Accept moves it to the inbox", async ({
  browser,
}) => {
  const viewport = { width: 1280, height: 900 };
  const recipientContext = await browser.newContext({ baseURL: hostUrl(CAMPUS), viewport });
  const strangerContext = await browser.newContext({ baseURL: hostUrl(CAMPUS), viewport });
  try {
    const words = unique("Desk lamp");
    const recipient = await createStudent(recipientContext, {
      campus: CAMPUS,
      label: "req-recipient",
      posts: [{ text: `${words}, warm light` }],
    });
    await createStudent(strangerContext, { campus: CAMPUS, label: "req-stranger" });
    const page = await recipientContext.newPage();
    const stranger = await strangerContext.newPage();

    // The setting, from the account overview's row.
    await page.goto("/settings/account");
    await hydrated(page);
    await page.getByRole("link", { name: /Who can message me/ }).click();
    await expect(page).toHaveURL(/\/settings\/account\/messages$/);
    const choices = page.getByRole("group", { name: "Who can message me" });
    await expect(choices.getByRole("radio", { name: "Anyone on my campus" })).toBeChecked();
    const save = page.getByRole("button", { name: "Save" });
    await expect(save).toBeDisabled();
    await choices.getByRole("radio", { name: "People I've traded with or written to first" }).check();
    await save.click();
    await expect(toast(page, "Account Updated!")).toBeVisible();
    await expect(
      choices.getByRole("radio", { name: "People I've traded with or written to first" }),
    ).toBeChecked();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shoot(page, "setting");

    // The recipient waits on the inbox; the stranger writes from the listing.
    await page.goto("/messages");
    await hydrated(page);
    const requestsTab = page.getByRole("link", { name: /^Requests/ });
    await expect(requestsTab).toHaveAccessibleName("Requests");
    const hello = unique("Is the lamp still available?");
    await stranger.goto(`/post/${recipient.postIds[0] ?? ""}`);
    await hydrated(stranger);
    await stranger.getByRole("button", { name: "More options for this post" }).first().click();
    await stranger.getByRole("menuitem", { name: "Send Message" }).click();
    await stranger.getByRole("textbox", { name: "Message" }).fill(hello);
    await stranger.getByRole("button", { name: "Send", exact: true }).click();
    await expect(toast(stranger, "New Conversation Started")).toBeVisible();
    await expect(stranger).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
    const chatPath = new URL(stranger.url()).pathname;
    // The sender sees their conversation as usual, 'Delivered'.
    await expect(stranger.getByText("Delivered")).toBeVisible();

    // Live: the Requests count moves; the inbox, the Messages badge and the header's total do not.
    await expect(requestsTab).toHaveAccessibleName("Requests 1 waiting");
    await expect(page.getByText("Send a message, get a message")).toBeVisible();
    await expect(messagesNav(page)).toHaveAccessibleName("Messages");

    await requestsTab.click();
    await expect(page).toHaveURL(/\/messages\?tab=requests$/);
    const requests = page.getByRole("list", { name: "Requests" });
    await expect(requests.getByText(hello)).toBeVisible();
    await expect(requests.getByRole("button", { name: "Accept" })).toBeVisible();
    await expect(requests.getByRole("button", { name: "Decline" })).toBeVisible();
    await expect(requests.getByRole("button", { name: "Block" })).toBeVisible();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shoot(page, "requests-tab");

    // Opening it accepts nothing and tells the sender nothing.
    await requests.getByRole("link").filter({ hasText: hello }).click();
    await expect(page).toHaveURL(new RegExp(`${chatPath}\\?tab=requests$`));
    const banner = page.getByRole("region", { name: "Requests" });
    await expect(banner).toContainText("wants to message you");
    await shoot(page, "request-opened");
    await expect(stranger.getByText("Delivered")).toBeVisible();
    await expect(stranger.getByText("Seen")).toHaveCount(0);

    // Accept: the conversation moves to the inbox and opens there.
    await banner.getByRole("button", { name: "Accept" }).click();
    await expect(toast(page, "Moved to your chats")).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${chatPath}$`));
    await expect(page.getByRole("link", { name: "Requests", exact: true })).toBeVisible();
    await expect(page.getByRole("list", { name: "Chats" }).getByText(hello)).toBeVisible();
    await expect(page.getByRole("region", { name: "Requests" })).toHaveCount(0);
    // Now opened in the inbox, it is read: the sender sees 'Seen'.
    await expect(stranger.getByText("Seen")).toBeVisible();
  } finally {
    await recipientContext.close();
    await strangerContext.close();
  }
});
