import { writeFile } from "node:fs/promises";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { axeRuleViolations } from "./support/axe";
import { hostUrl } from "./support/env";
import { hydrated, toast } from "./support/page";
import { writePhoto } from "./support/photos";
import { createStudent } from "./support/student";

// Decision 0235: a buyer writes to a seller from a post; the seller sees it without reloading
// (the live event stream, decision 0235), Delivered turns
// into Seen, a reply, a photo, a like, the unread badge, delete for both; the mobile New Message
// flow. Two browser contexts, two students, on a campus no other spec reads (Duke).

const CAMPUS = "duke";
test.use({ baseURL: hostUrl(CAMPUS) });

function unique(what: string): string {
  return `${what} ${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
}

async function twoStudents(browser: Browser, options: { viewport?: { width: number; height: number } } = {}) {
  const sellerContext = await browser.newContext({ baseURL: hostUrl(CAMPUS), viewport: options.viewport });
  const buyerContext = await browser.newContext({ baseURL: hostUrl(CAMPUS), viewport: options.viewport });
  const words = unique("Mini fridge");
  const seller = await createStudent(sellerContext, {
    campus: CAMPUS,
    label: "msg-seller",
    posts: [{ text: `${words}, cold and quiet`, photos: 1 }],
  });
  const buyer = await createStudent(buyerContext, { campus: CAMPUS, label: "msg-buyer" });
  return {
    seller,
    buyer,
    words,
    sellerPage: await sellerContext.newPage(),
    buyerPage: await buyerContext.newPage(),
    close: async () => {
      await sellerContext.close();
      await buyerContext.close();
    },
  };
}

/** The Messages entry of the side navigation (wide) or the bottom bar (phones), with its badge. */
function messagesNav(page: Page) {
  return page
    .getByRole("navigation")
    .getByRole("link", { name: /^Messages(\s*, [\d+]+ unread)?$/ })
    .first();
}

async function startFromPost(buyerPage: Page, postId: string, text: string) {
  await buyerPage.goto(`/post/${postId}`);
  await hydrated(buyerPage);
  await buyerPage.getByRole("button", { name: "More options for this post" }).first().click();
  await buyerPage.getByRole("menuitem", { name: "Send Message" }).click();
  await expect(buyerPage).toHaveURL(/\/messages\/new\?to=/);
  await buyerPage.getByRole("textbox", { name: "Message" }).fill(text);
  await buyerPage.getByRole("button", { name: "Send", exact: true }).click();
  await expect(toast(buyerPage, "New Conversation Started")).toBeVisible();
  await expect(buyerPage).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
}

test("a buyer writes from a post; the seller sees it live, Seen, a reply, a photo, a like, the badge", async ({
  browser,
}, testInfo) => {
  const { seller, buyer, words, sellerPage, buyerPage, close } = await twoStudents(browser);
  try {
    // The seller waits on the inbox.
    await sellerPage.goto("/messages");
    await hydrated(sellerPage);
    await expect(sellerPage.getByText("Send a message, get a message")).toBeVisible();
    await expect(messagesNav(sellerPage)).toHaveAccessibleName("Messages");

    const postId = seller.postIds[0] ?? "";
    const hello = unique("Is the fridge still available?");
    await startFromPost(buyerPage, postId, hello);
    const chatPath = new URL(buyerPage.url()).pathname;
    const thread = buyerPage.getByRole("list", { name: "Messages" });
    // The shared post's card and the text; Delivered until the seller opens it.
    await expect(thread.getByText(words)).toBeVisible();
    await expect(thread.getByText(hello)).toBeVisible();
    await expect(buyerPage.getByTestId("receipt")).toHaveText("Delivered");

    // The seller's inbox shows it without a reload, with the unread badge.
    const inbox = sellerPage.getByRole("list", { name: "Chats" });
    await expect(inbox.getByText(hello)).toBeVisible({ timeout: 15_000 });
    await expect(messagesNav(sellerPage)).toHaveAccessibleName(/1 unread/);
    await inbox.getByRole("link", { name: new RegExp(buyer.firstName) }).click();
    await expect(sellerPage).toHaveURL(new RegExp(`${chatPath}$`));
    await expect(sellerPage.getByRole("list", { name: "Messages" }).getByText(hello)).toBeVisible();
    await expect(messagesNav(sellerPage)).toHaveAccessibleName("Messages", { timeout: 15_000 });
    // Opening it turns the buyer's Delivered into Seen.
    await expect(buyerPage.getByTestId("receipt")).toHaveText("Seen", { timeout: 15_000 });

    // The seller replies; the buyer sees it live.
    const reply = unique("Yes, pick up tomorrow?");
    await sellerPage.getByRole("textbox", { name: "Message" }).fill(reply);
    await sellerPage.getByRole("textbox", { name: "Message" }).press("Enter");
    await expect(sellerPage.getByRole("list", { name: "Messages" }).getByText(reply)).toBeVisible();
    await expect(thread.getByText(reply)).toBeVisible({ timeout: 15_000 });

    // The buyer sends a photo; the seller sees it.
    const photo = await writePhoto(testInfo.outputPath("fridge.png"), { r: 40, g: 140, b: 90 }, 800, 600);
    await buyerPage.locator('input[type="file"][name="photo"]').setInputFiles(photo);
    await expect(buyerPage.getByAltText("Attached to your message")).toBeVisible();
    await buyerPage.getByRole("button", { name: "Send", exact: true }).click();
    await expect(thread.getByAltText("Photo you sent")).toBeVisible();
    const seen = sellerPage
      .getByRole("list", { name: "Messages" })
      .getByAltText(`Photo from ${buyer.firstName}`);
    await expect(seen).toBeVisible({ timeout: 15_000 });
    // Decision 0463: the members-only address, 128 random bits in its name, and it loads.
    const src = (await seen.getAttribute("src")) ?? "";
    expect(src).toMatch(/^\/chat-photos\/[0-9a-f-]{36}\/[0-9a-f]{32}-.+\.webp$/);
    await expect
      .poll(() => seen.evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBeGreaterThan(0);
    // Asked from the page (the browser resolves {campus}.localhost): with the seller's session, and without one.
    const ask = (credentials: RequestCredentials) =>
      sellerPage.evaluate(
        async ({ url, credentials }) => {
          const response = await fetch(url, { credentials, cache: "no-store" });
          return { status: response.status, cacheControl: response.headers.get("cache-control") ?? "" };
        },
        { url: src, credentials },
      );
    const asSeller = await ask("same-origin");
    expect(asSeller.status).toBe(200);
    expect(asSeller.cacheControl).toMatch(/^private\b/);
    expect((await ask("omit")).status).toBe(404);

    // Only the recipient likes: the seller likes the buyer's message, 'Reaction sent.'.
    const helloBubble = sellerPage.getByRole("listitem").filter({ hasText: hello });
    await helloBubble.getByRole("button", { name: "Like message" }).click();
    await expect(toast(sellerPage, "Reaction sent.")).toBeVisible();
    await expect(helloBubble.getByRole("button", { name: "Unlike message" })).toBeVisible();
    await expect(
      buyerPage.getByRole("listitem").filter({ hasText: hello }).getByText(`Liked by ${seller.firstName}`),
    ).toBeAttached({
      timeout: 15_000,
    });
    await expect(thread.getByRole("button", { name: "Like message" }).filter({ hasText: "♡" })).toHaveCount(
      1,
    );
  } finally {
    await close();
  }
});

test("words typed while a message is on its way stay in the composer when it is sent", async ({
  browser,
}) => {
  const { seller, buyerPage, close } = await twoStudents(browser);
  try {
    await startFromPost(buyerPage, seller.postIds[0] ?? "", unique("Hello"));
    const field = buyerPage.getByRole("textbox", { name: "Message" });
    // The send is held until the next words are typed.
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const sendPattern = /\/messages\/[0-9a-f-]{36}\.data/;
    await buyerPage.route(sendPattern, async (route) => {
      if (route.request().method() !== "POST") return route.fallback();
      await released;
      return route.fallback();
    });
    const first = unique("Is it still available?");
    const sending = buyerPage.waitForRequest(
      (request) => sendPattern.test(request.url()) && request.method() === "POST",
    );
    await field.fill(first);
    await field.press("Enter");
    await sending;
    const next = "And could you deliver it?";
    await field.fill(next);
    release();
    await expect(buyerPage.getByRole("list", { name: "Messages" }).getByText(first)).toBeVisible();
    await expect(field).toHaveValue(next);
  } finally {
    await close();
  }
});

test("older messages load near the top, one page of 15, and the reader keeps their place", async ({
  browser,
}) => {
  const { seller, sellerPage, buyerPage, close } = await twoStudents(browser);
  try {
    const first = unique("Message 1");
    await startFromPost(buyerPage, seller.postIds[0] ?? "", first);
    const chatPath = new URL(buyerPage.url()).pathname;
    // 16 more through the chat's send action (what the composer posts), from the buyer's page:
    // 17 in all, two more than the page of 15 the chat opens with.
    const texts = Array.from({ length: 17 }, (_, n) => first.replace("Message 1", `Message ${n + 1}`));
    const statuses = await buyerPage.evaluate(
      async ({ path, more }) => {
        const answers: number[] = [];
        for (const text of more) {
          const form = new FormData();
          form.set("intent", "send-message");
          form.set("text", text);
          answers.push((await fetch(path, { method: "POST", body: form })).status);
        }
        return answers;
      },
      { path: chatPath, more: texts.slice(1) },
    );
    expect(statuses).toEqual(texts.slice(1).map(() => 200));

    await sellerPage.goto(chatPath);
    await hydrated(sellerPage);
    const thread = sellerPage.getByRole("list", { name: "Messages" });
    // The newest 15 (3 … 17), the newest in view at the bottom.
    await expect(thread.getByText(texts[16] ?? "", { exact: true })).toBeInViewport();
    await expect(thread.getByRole("listitem")).toHaveCount(15);
    await expect(thread.getByText(texts[1] ?? "", { exact: true })).toHaveCount(0);

    // The reader scrolls up to the top: the older page comes in above, and the messages they
    // were reading stay where they were (the list is no longer at its top).
    const oldestShown = thread.getByText(texts[2] ?? "", { exact: true });
    await thread.hover();
    await sellerPage.mouse.wheel(0, -5000);
    await expect(thread.getByRole("listitem")).toHaveCount(17);
    await expect(oldestShown).toBeInViewport();
    await expect(thread.getByText(texts[0] ?? "", { exact: true })).not.toBeInViewport();
    // Nothing older: no further page is offered.
    await expect(sellerPage.getByRole("button", { name: "Load earlier messages" })).toHaveCount(0);

    // A new message arrives live: the one it pushes off the newest page stays, between the two.
    const latest = first.replace("Message 1", "Message 18");
    const sent = await buyerPage.evaluate(
      async ({ path, text }) => {
        const form = new FormData();
        form.set("intent", "send-message");
        form.set("text", text);
        return (await fetch(path, { method: "POST", body: form })).status;
      },
      { path: chatPath, text: latest },
    );
    expect(sent).toBe(200);
    await expect(thread.getByText(latest, { exact: true })).toBeVisible({ timeout: 15_000 });
    await expect(thread.getByRole("listitem")).toHaveCount(18);
    await expect(thread.getByText(texts[2] ?? "", { exact: true })).toHaveCount(1);

    // A like on an older message stays liked once its answer, and the page's reload after it, are in.
    const oldest = thread.getByRole("listitem").filter({ hasText: texts[0] ?? "" });
    const reloaded = sellerPage.waitForResponse(
      (response) => response.url().includes(`${chatPath}.data`) && response.request().method() === "GET",
    );
    await oldest.getByRole("button", { name: "Like message" }).click();
    await expect(toast(sellerPage, "Reaction sent.")).toBeVisible();
    await reloaded;
    // Enabled again once the like is no longer pending: what it shows then is the settled state.
    const heart = oldest.getByRole("button", { name: /^(Like|Unlike) message$/ });
    await expect(heart).toBeEnabled();
    await expect(heart).toHaveAccessibleName("Unlike message");
  } finally {
    await close();
  }
});

test("delete for both: the conversation goes from both inboxes", async ({ browser }) => {
  const { seller, sellerPage, buyerPage, close } = await twoStudents(browser);
  try {
    const hello = unique("Would you take $40?");
    await startFromPost(buyerPage, seller.postIds[0] ?? "", hello);
    const chatPath = new URL(buyerPage.url()).pathname;
    await sellerPage.goto(chatPath);
    await hydrated(sellerPage);
    await expect(sellerPage.getByRole("list", { name: "Messages" }).getByText(hello)).toBeVisible();

    await buyerPage.getByRole("button", { name: "Delete", exact: true }).click();
    const dialog = buyerPage.getByRole("dialog", { name: "Delete conversation?" });
    await dialog.getByRole("button", { name: "Delete", exact: true }).click();
    await expect(toast(buyerPage, "Chat deleted")).toBeVisible();
    await expect(buyerPage).toHaveURL(/\/messages$/);
    await expect(buyerPage.getByText("Send a message, get a message")).toBeVisible();
    // The seller's open chat learns it is gone.
    await expect(sellerPage.getByText("This conversation doesn't exist")).toBeVisible({ timeout: 15_000 });
    await sellerPage.goto("/messages");
    await expect(sellerPage.getByText("Send a message, get a message")).toBeVisible();
  } finally {
    await close();
  }
});

test("a block replaces both composers; Unblock in settings gives them back", async ({ browser }) => {
  const { seller, buyer, sellerPage, buyerPage, close } = await twoStudents(browser);
  try {
    await startFromPost(buyerPage, seller.postIds[0] ?? "", unique("Hello there"));
    const chatPath = new URL(buyerPage.url()).pathname;
    await sellerPage.goto(chatPath);
    await hydrated(sellerPage);
    await sellerPage.getByRole("button", { name: "Block", exact: true }).click();
    await expect(toast(sellerPage, "User blocked")).toBeVisible();
    await expect(sellerPage.getByText("You blocked this user")).toBeVisible();
    await expect(sellerPage.getByRole("textbox", { name: "Message" })).toHaveCount(0);
    // The buyer's open chat learns it at its next refresh.
    await expect(buyerPage.getByText("You can't message this user.")).toBeVisible({ timeout: 15_000 });
    await expect(buyerPage.getByRole("textbox", { name: "Message" })).toHaveCount(0);

    await sellerPage.goto("/settings/account/blocked");
    await hydrated(sellerPage);
    const row = sellerPage.getByRole("listitem").filter({ hasText: `@${buyer.username}` });
    await row.getByRole("button", { name: "Unblock" }).click();
    await expect(toast(sellerPage, "User unblocked")).toBeVisible();
    await expect(buyerPage.getByRole("textbox", { name: "Message" })).toBeVisible({ timeout: 15_000 });
  } finally {
    await close();
  }
});

test("phones: the New Message page searches people, asks 'Start Conversation?', and starts the chat", async ({
  browser,
}) => {
  const phone = { width: 390, height: 844 };
  const { seller, sellerPage, buyerPage, close } = await twoStudents(browser, { viewport: phone });
  try {
    await buyerPage.goto("/messages");
    await hydrated(buyerPage);
    await buyerPage.getByRole("link", { name: "New Message" }).click();
    await expect(buyerPage).toHaveURL(/\/messages\/new$/);
    const search = buyerPage.getByRole("combobox", { name: "Search people" });
    await expect(search).toHaveAttribute("placeholder", "Search Duke Buy / Sell");
    await expect(buyerPage.getByText("Try searching someone's name . . .")).toBeVisible();
    // Enter with nobody highlighted: 'Please select a user!'.
    await search.fill(seller.firstName.slice(0, 1));
    const alerts: string[] = [];
    buyerPage.once("dialog", (dialog) => {
      alerts.push(dialog.message());
      void dialog.accept();
    });
    await search.press("Enter");
    await expect.poll(() => alerts).toEqual(["Please select a user!"]);
    // Test students share a name: their username is the best match, first (the people search
    // of decision 0190 also lists near matches after it).
    await search.fill(seller.username);
    await expect(buyerPage.getByRole("option").first()).toHaveAccessibleName(new RegExp(seller.username));
    await search.press("ArrowDown");
    await search.press("Enter");
    const confirm = buyerPage.getByRole("dialog", { name: "Start Conversation?" });
    await confirm.getByRole("button", { name: "Start Conversation" }).click();
    await expect(buyerPage).toHaveURL(/\/messages\/new\?to=/);
    const hello = unique("Hi from my phone");
    await buyerPage.getByRole("textbox", { name: "Message" }).fill(hello);
    await buyerPage.getByRole("button", { name: "Send", exact: true }).click();
    await expect(toast(buyerPage, "New Conversation Started")).toBeVisible();
    await expect(buyerPage.getByRole("list", { name: "Messages" }).getByText(hello)).toBeVisible();

    // The seller's bottom bar shows the unread chat, which clears once opened.
    await sellerPage.goto("/home");
    await hydrated(sellerPage);
    const bar = sellerPage.getByRole("link", { name: /1 unread/ }).filter({ hasText: "Messages" });
    await expect(bar).toBeVisible();
    await bar.click();
    await sellerPage.getByRole("list", { name: "Chats" }).getByRole("link").first().click();
    await expect(sellerPage.getByRole("list", { name: "Messages" }).getByText(hello)).toBeVisible();
    await sellerPage.goto("/home");
    await expect(sellerPage.getByRole("link", { name: "Messages", exact: true }).last()).toBeVisible();
  } finally {
    await close();
  }
});

/** A buyer (wide screen) writes to the seller from the seller's post; the seller's page is a phone's or a desktop's. */
async function conversationFor(browser: Browser, sellerViewport: { width: number; height: number }) {
  const sellerContext = await browser.newContext({ baseURL: hostUrl(CAMPUS), viewport: sellerViewport });
  const buyerContext = await browser.newContext({ baseURL: hostUrl(CAMPUS) });
  const words = unique("Desk chair");
  const seller = await createStudent(sellerContext, {
    campus: CAMPUS,
    label: "msg27-seller",
    posts: [{ text: `${words}, comfy` }],
  });
  const buyer = await createStudent(buyerContext, { campus: CAMPUS, label: "msg27-buyer" });
  const buyerPage = await buyerContext.newPage();
  const hello = unique("Still for sale?");
  await startFromPost(buyerPage, seller.postIds[0] ?? "", hello);
  const chatPath = new URL(buyerPage.url()).pathname;
  return {
    seller,
    buyer,
    words,
    hello,
    chatPath,
    buyerPage,
    sellerContext,
    sellerPage: await sellerContext.newPage(),
    close: async () => {
      await sellerContext.close();
      await buyerContext.close();
    },
  };
}

test("decision 0455: one message is cleared once, and the two bells of a phone always agree", async ({
  browser,
}) => {
  const { sellerPage, sellerContext, chatPath, hello, close } = await conversationFor(browser, {
    width: 390,
    height: 844,
  });
  try {
    await sellerPage.goto("/home");
    await hydrated(sellerPage);
    const headerBell = sellerPage.getByRole("main").getByRole("link", { name: /^Notifications/ });
    const barBell = sellerPage
      .getByRole("navigation", { name: "Tabs" })
      .getByRole("link", { name: /^Notifications/ });
    const barMessages = sellerPage
      .getByRole("navigation", { name: "Tabs" })
      .getByRole("link", { name: /^Messages/ });
    const accountMenu = sellerPage.getByRole("button", { name: /^Account menu for / });
    // The new chat is one unread chat and one 'new chat' notification: both bells say 1, and the
    // header's total says what it counts.
    await expect(barBell).toHaveAccessibleName(/^Notifications\W+1 unread$/);
    await expect(headerBell).toHaveAccessibleName(/^Notifications\W+1 unread$/);
    await expect(barMessages).toHaveAccessibleName(/^Messages\W+1 unread$/);
    await expect(accountMenu).toHaveAccessibleName(/, 2 unread notifications and chats$/);

    // Another tab of the seller's stays open on the feed.
    const otherTab = await sellerContext.newPage();
    await otherTab.goto("/home");
    await hydrated(otherTab);
    const otherBell = otherTab
      .getByRole("navigation", { name: "Tabs" })
      .getByRole("link", { name: /^Notifications/ });
    await expect(otherBell).toHaveAccessibleName(/^Notifications\W+1 unread$/);

    // Opening the chat reads it and its notification: nothing is left to clear on the bell.
    await sellerPage.goto(chatPath);
    await expect(sellerPage.getByRole("list", { name: "Messages" }).getByText(hello)).toBeVisible();
    await expect(barBell).toHaveAccessibleName("Notifications", { timeout: 15_000 });
    await expect(barMessages).toHaveAccessibleName("Messages");
    await expect(accountMenu).not.toHaveAccessibleName(/unread/);
    // The other tab hears of it live (decision 0210) and agrees.
    await expect(otherBell).toHaveAccessibleName("Notifications", { timeout: 15_000 });
    await expect(
      otherTab.getByRole("main").getByRole("link", { name: /^Notifications/ }),
    ).toHaveAccessibleName("Notifications");
  } finally {
    await close();
  }
});

test("decision 0456: a chat shows each message's time under its day, the shared listing's live status, and refuses a non-photo when picked", async ({
  browser,
}, testInfo) => {
  const { sellerPage, buyerPage, words, seller, close } = await conversationFor(browser, {
    width: 1280,
    height: 900,
  });
  try {
    const thread = buyerPage.getByRole("list", { name: "Messages" });
    // One day heading ('Today'), each message's time in a <time datetime>.
    await expect(thread.getByRole("heading", { level: 2 })).toHaveText(["Today"]);
    const times = thread.locator("time[datetime]");
    await expect(times).toHaveCount(1);
    expect(await times.first().textContent()).toMatch(/^\d{1,2}:\d{2} (AM|PM)$/);

    // The seller marks the listing sold: the card says Sold when the thread is loaded again.
    const card = thread.getByRole("link").filter({ hasText: words });
    await expect(card.getByText("Sold", { exact: true })).toHaveCount(0);
    await sellerPage.goto(`/post/${seller.postIds[0]}`);
    await hydrated(sellerPage);
    const marked = await sellerPage.evaluate(async (postId) => {
      const form = new URLSearchParams({ intent: "set-listing-status", status: "sold" });
      return (await fetch(`/post/${postId}`, { method: "POST", body: form, redirect: "manual" })).status;
    }, seller.postIds[0] ?? "");
    expect(marked).toBeLessThan(400);
    await buyerPage.reload();
    await expect(
      thread.getByRole("link").filter({ hasText: words }).getByText("Sold", { exact: true }),
    ).toBeVisible();

    // A PDF picked as the photo is refused at once, with the posts' words, and nothing is attached.
    const pdf = testInfo.outputPath("notes.pdf");
    await writeFile(pdf, "%PDF-1.4 not a photo");
    await hydrated(buyerPage);
    await buyerPage.locator('input[type="file"][name="photo"]').setInputFiles(pdf);
    await expect(toast(buyerPage, "Only photos & videos are allowed!")).toBeVisible();
    await expect(buyerPage.getByAltText("Attached to your message")).toHaveCount(0);
  } finally {
    await close();
  }
});

test("decision 0475: the inbox, a thread and the account menu pass axe at 390 and 1280 px", async ({
  browser,
}) => {
  // Two conversations and four axe runs: on a loaded two-core machine this outlasts the default.
  test.setTimeout(150_000);
  const rules = ["label-content-name-mismatch", "color-contrast", "page-has-heading-one"];
  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    const { sellerPage, chatPath, close } = await conversationFor(browser, viewport);
    try {
      // The chat unread: the account menu carries its badge (at 1280 px beside the first name).
      await sellerPage.goto("/messages");
      expect.soft(await axeRuleViolations(sellerPage, rules), `inbox at ${viewport.width} px`).toEqual([]);
      // The thread beside the inbox with its row selected (wide), or alone (phone).
      await sellerPage.goto(chatPath);
      expect.soft(await axeRuleViolations(sellerPage, rules), `thread at ${viewport.width} px`).toEqual([]);
      await expect
        .soft(sellerPage.getByRole("heading", { level: 1 }).filter({ visible: true }))
        .toHaveCount(viewport.width < 1000 ? 1 : 2);
      await sellerPage.screenshot({ path: `/tmp/chat27-thread-${viewport.width}.png` });
    } finally {
      await close();
    }
  }
});
