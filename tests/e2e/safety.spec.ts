import { mkdir } from "node:fs/promises";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { hostUrl } from "./support/env";
import { hydrated, toast } from "./support/page";
import { createStudent } from "./support/student";

// docs/product/safety.md: a payment-first message shows the warning card to the recipient only; a
// phone number asks the sender first (Edit / Send anyway); a verification-code request is not
// delivered and says why. Two browser contexts, two students.

const CAMPUS = "unt";
const SHOTS = "/tmp/safety-shots";
test.use({ baseURL: hostUrl(CAMPUS) });

const WARNING =
  "Asking for payment before you meet is the most common scam. Pay only at the meetup, after you've seen the item.";

async function twoStudents(browser: Browser, width: number) {
  const viewport = { width, height: width < 600 ? 844 : 900 };
  const sellerContext = await browser.newContext({ baseURL: hostUrl(CAMPUS), viewport });
  const buyerContext = await browser.newContext({ baseURL: hostUrl(CAMPUS), viewport });
  const seller = await createStudent(sellerContext, {
    campus: CAMPUS,
    label: "safety-seller",
    posts: [{ text: `Desk lamp ${Date.now()}, works great` }],
  });
  await createStudent(buyerContext, { campus: CAMPUS, label: "safety-buyer" });
  return {
    seller,
    sellerPage: await sellerContext.newPage(),
    buyerPage: await buyerContext.newPage(),
    close: async () => {
      await sellerContext.close();
      await buyerContext.close();
    },
  };
}

async function startFromPost(buyerPage: Page, postId: string, text: string): Promise<string> {
  await buyerPage.goto(`/post/${postId}`);
  await hydrated(buyerPage);
  await buyerPage.getByRole("button", { name: "More options for this post" }).first().click();
  await buyerPage.getByRole("menuitem", { name: "Send Message" }).click();
  await expect(buyerPage).toHaveURL(/\/messages\/new\?to=/);
  await buyerPage.getByRole("textbox", { name: "Message" }).fill(text);
  await buyerPage.getByRole("button", { name: "Send", exact: true }).click();
  await expect(buyerPage).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
  return new URL(buyerPage.url()).pathname;
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("button", { name: "Send", exact: true }).click();
}

for (const width of [390, 1280]) {
  test(`at ${width} px: the recipient sees the payment-first card, the sender does not; a phone number asks first`, async ({
    browser,
  }) => {
    await mkdir(SHOTS, { recursive: true });
    const { seller, sellerPage, buyerPage, close } = await twoStudents(browser, width);
    try {
      const chatPath = await startFromPost(
        buyerPage,
        seller.postIds[0] ?? "",
        "Hi! Is the lamp still available?",
      );
      await sellerPage.goto(chatPath);
      await hydrated(sellerPage);
      // The seller asks for payment first: delivered, with the card under it on the buyer's side only.
      await send(sellerPage, "yes! pls zelle $20 first to hold it");
      const sellerThread = sellerPage.getByRole("list", { name: "Messages" });
      await expect(sellerThread.getByText("pls zelle $20 first to hold it")).toBeVisible();
      const buyerThread = buyerPage.getByRole("list", { name: "Messages" });
      await expect(buyerThread.getByText("pls zelle $20 first to hold it")).toBeVisible();
      const card = buyerPage.getByRole("complementary", { name: "Safety warning" });
      await expect(card).toContainText(WARNING);
      await expect(card.getByRole("link", { name: "Safety tips" })).toHaveAttribute(
        "href",
        "/settings/trust_and_safety",
      );
      await card.scrollIntoViewIfNeeded();
      await buyerPage.screenshot({ path: `${SHOTS}/warning-card-${width}.png` });
      await card.getByRole("button", { name: "Report" }).click();
      await expect(buyerPage.getByRole("dialog")).toBeVisible();
      await buyerPage.keyboard.press("Escape");
      // Reloaded, the sender still sees no card.
      await sellerPage.reload();
      await hydrated(sellerPage);
      await expect(sellerThread.getByText("pls zelle $20 first to hold it")).toBeVisible();
      await expect(sellerPage.getByTestId("safety-warning")).toHaveCount(0);

      // A phone number: the sender is asked first; Edit keeps the text; Send anyway sends it.
      await send(buyerPage, "ok, text me at 405-555-0123");
      const nudge = buyerPage.getByRole("alertdialog", { name: "Before you send" });
      await expect(nudge).toContainText("Sharing your number? Keep the chat here until you meet.");
      await buyerPage.screenshot({ path: `${SHOTS}/nudge-${width}.png` });
      await expect(buyerThread.getByText("text me at 405-555-0123")).toHaveCount(0);
      await nudge.getByRole("button", { name: "Edit" }).click();
      await expect(nudge).toBeHidden();
      await expect(buyerPage.getByRole("textbox", { name: "Message" })).toHaveValue(
        "ok, text me at 405-555-0123",
      );
      await buyerPage.getByRole("button", { name: "Send", exact: true }).click();
      await nudge.getByRole("button", { name: "Send anyway" }).click();
      await expect(buyerThread.getByText("ok, text me at 405-555-0123")).toBeVisible();
      await expect(sellerThread.getByText("ok, text me at 405-555-0123")).toBeVisible();
    } finally {
      await close();
    }
  });
}

test("a verification-code request is not delivered, and the sender is told why", async ({ browser }) => {
  const { seller, sellerPage, buyerPage, close } = await twoStudents(browser, 1280);
  try {
    const chatPath = await startFromPost(buyerPage, seller.postIds[0] ?? "", "Hello, still for sale?");
    await sellerPage.goto(chatPath);
    await hydrated(sellerPage);
    await send(buyerPage, "before we meet, what's the code Google sent you?");
    await expect(toast(buyerPage, "asking for a verification code is how accounts get stolen")).toBeVisible();
    await expect(
      buyerPage.getByRole("list", { name: "Messages" }).getByText("what's the code Google sent you"),
    ).toHaveCount(0);
    // The text stays in the composer to edit.
    await expect(buyerPage.getByRole("textbox", { name: "Message" })).toHaveValue(
      "before we meet, what's the code Google sent you?",
    );
    await sellerPage.reload();
    await hydrated(sellerPage);
    await expect(
      sellerPage.getByRole("list", { name: "Messages" }).getByText("Hello, still for sale?"),
    ).toBeVisible();
    await expect(sellerPage.getByText("what's the code Google sent you")).toHaveCount(0);
  } finally {
    await close();
  }
});

test("a comment asking for a verification code is refused with the reason; the text stays in the box", async ({
  browser,
}) => {
  const { seller, buyerPage, close } = await twoStudents(browser, 1280);
  try {
    await buyerPage.goto(`/post/${seller.postIds[0] ?? ""}`);
    await hydrated(buyerPage);
    await buyerPage.getByRole("link", { name: "Create A Comment" }).click();
    const commentBox = buyerPage.getByRole("form", { name: "Write a comment" }).first();
    const text = "I'll take it, just send me the code Google texts you";
    await commentBox.getByRole("textbox", { name: "Comment text" }).fill(text);
    await commentBox.getByRole("button", { name: "Reply", exact: true }).click();
    await expect(toast(buyerPage, "asking for a verification code is how accounts get stolen")).toBeVisible();
    await expect(commentBox.getByRole("textbox", { name: "Comment text" })).toContainText(text);
    await buyerPage.reload();
    await hydrated(buyerPage);
    await expect(buyerPage.getByText("send me the code Google texts you")).toHaveCount(0);
  } finally {
    await close();
  }
});
