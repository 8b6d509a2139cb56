import { expect as baseExpect, type Page, test } from "@playwright/test";
import { hydrated, toast } from "./support/page";
import { createStudent } from "./support/student";

// Decision 0621: a saved search's instant alert. One student saves 'desk lamp' (Instant, the
// default); another posts 'IKEA desk lamp' through the composer; the first student's bell shows
// the match live, without a reload, and the notice opens the listing.

test.use({ actionTimeout: 20_000 });
test.describe.configure({ timeout: 120_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

function notificationsLink(page: Page) {
  return page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /Notifications/ });
}

test("save 'desk lamp' as Instant, another student posts 'IKEA desk lamp': the bell shows it live and opens the listing", async ({
  browser,
}) => {
  const buyerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const sellerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await createStudent(buyerContext, { label: "alert-buyer" });
  await createStudent(sellerContext, { label: "alert-seller", fullName: "Sela Seller" });
  const buyer = await buyerContext.newPage();
  const seller = await sellerContext.newPage();

  await buyer.goto("/search?q=desk+lamp");
  await hydrated(buyer);
  await buyer.getByRole("button", { name: "Save search" }).click();
  await expect(toast(buyer, "Search saved")).toBeVisible();
  await buyer.goto("/home");
  await hydrated(buyer);
  await expect(notificationsLink(buyer)).toHaveAccessibleName("Notifications");
  // The live stream is open before the listing is posted (decision 0212).
  await expect(buyer.locator("html")).toHaveAttribute("data-realtime-role", "leader");
  await buyer.evaluate(() => {
    (window as unknown as { sameDocument: boolean }).sameDocument = true;
  });

  await seller.goto("/home");
  await hydrated(seller);
  await seller.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Create Post" }).click();
  const dialog = seller.getByRole("dialog", { name: "Create Post" });
  await expect(dialog.getByRole("textbox", { name: "Post text" })).toBeFocused();
  await seller.keyboard.type("IKEA desk lamp, warm light");
  await dialog.getByRole("button", { name: "Post", exact: true }).click();
  await expect(toast(seller, "Posted! Your post was sent.")).toBeVisible();

  // Live: the job runs right after the post commits and its notice reaches the open page.
  await expect(notificationsLink(buyer)).toHaveAccessibleName(/1 unread/);
  expect(await buyer.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(
    true,
  );
  await notificationsLink(buyer).click();
  const notice = buyer
    .getByRole("list", { name: "Notifications" })
    .getByRole("link", { name: /New match for "desk lamp"/ });
  await expect(notice).toBeVisible();
  await buyer.screenshot({ path: "/tmp/h-match-shots/notification-1280.png" });
  await notice.click();
  await expect(buyer).toHaveURL(/\/post\/[0-9a-f-]{36}$/);
  await expect(buyer.getByText("IKEA desk lamp, warm light")).toBeVisible();

  // Opening the saved search from the settings marks the listing delivered since as new.
  await buyer.goto("/settings/searches");
  await hydrated(buyer);
  await buyer.getByRole("button", { name: "Open" }).click();
  await expect(buyer).toHaveURL(/\/search\?q=desk\+lamp&since=/);
  const results = buyer.getByRole("list", { name: "Posts matching desk lamp" });
  await expect(
    results.getByRole("listitem").filter({ hasText: "IKEA desk lamp" }).getByText("New match"),
  ).toBeVisible();
  await buyer.screenshot({ path: "/tmp/h-match-shots/new-mark-1280.png" });
  await buyer.setViewportSize({ width: 390, height: 844 });
  await buyer.screenshot({ path: "/tmp/h-match-shots/new-mark-390.png" });
  await buyerContext.close();
  await sellerContext.close();
});
