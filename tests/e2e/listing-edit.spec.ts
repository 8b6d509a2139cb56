import { mkdirSync } from "node:fs";
import { expect as baseExpect, type Locator, type Page, test } from "@playwright/test";
import { hydrated, toast } from "./support/page";
import { writePhoto } from "./support/photos";
import { createStudent } from "./support/student";

// Decision 0640: a seller edits a listing from its menu with the composer's own fields; a buyer
// who saved it hears of the price drop once, in the bell, which opens the listing. Raising the
// price tells no one; a refused edit changes nothing and keeps what was typed; the edit page is
// the owner's alone (404 for anyone else).

const SHOTS = "/tmp/shots-hedit";
const WIDTHS = [390, 1280];
test.use({ actionTimeout: 20_000 });
test.describe.configure({ timeout: 180_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

function notificationsLink(page: Page) {
  return page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /Notifications/ });
}

/** The form's controls as 'role "name"', without their values: the fields and labels it shows. */
async function controlsOf(form: Locator): Promise<string[]> {
  const snapshot = await form.ariaSnapshot();
  return snapshot
    .split("\n")
    .map((line) => /^\s*- (textbox|radio|combobox|checkbox|button|group|switch) "([^"]*)"/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => `${match[1]} "${match[2]}"`)
    .filter((control) => control !== 'button "Post"' && control !== 'button "Save"');
}

async function shoot(page: Page, name: string): Promise<void> {
  const size = page.viewportSize() ?? { width: 1280, height: 900 };
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize(size);
}

test("a price drop on a saved listing notifies its saver; an edit keeps the comments, says 'Edited', and is the owner's alone", async ({
  browser,
}, testInfo) => {
  mkdirSync(SHOTS, { recursive: true });
  const red = await writePhoto(testInfo.outputPath("red.png"), { r: 200, g: 40, b: 40 });
  const green = await writePhoto(testInfo.outputPath("green.png"), { r: 40, g: 160, b: 80 });
  const blue = await writePhoto(testInfo.outputPath("blue.png"), { r: 40, g: 80, b: 200 });
  const yellow = await writePhoto(testInfo.outputPath("yellow.png"), { r: 220, g: 200, b: 40 });
  const sellerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const buyerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await createStudent(sellerContext, { label: "edit-seller", fullName: "Sela Seller" });
  await createStudent(buyerContext, { label: "edit-buyer", fullName: "Bea Buyer" });
  const seller = await sellerContext.newPage();
  const buyer = await buyerContext.newPage();
  const title = `Walnut desk ${Date.now()}`;

  // The seller posts a listing with the composer: $40, open to offers, like new.
  await seller.goto("/home");
  await hydrated(seller);
  await seller.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Create Post" }).click();
  const dialog = seller.getByRole("dialog", { name: "Create Post" });
  await expect(dialog.getByRole("textbox", { name: "Post text" })).toBeFocused();
  await seller.keyboard.type(title);
  const details = dialog.getByRole("group", { name: "Listing details (optional)" });
  await details.getByRole("textbox", { name: "Price" }).fill("40");
  await details.getByText("Open to offers", { exact: true }).click();
  await details.getByRole("combobox", { name: "Condition" }).selectOption("Like new");
  await dialog.locator('input[type="file"]').setInputFiles([red, green]);
  await expect(dialog.getByRole("list", { name: "Chosen photos and videos" }).getByRole("img")).toHaveCount(
    2,
  );
  const composerControls = await controlsOf(dialog.getByRole("form", { name: "Create Post" }));
  await dialog.getByRole("button", { name: "Post", exact: true }).click();
  await toast(seller, "Posted! Your post was sent.").getByRole("link", { name: "View" }).click();
  await expect(seller).toHaveURL(/\/post\/[0-9a-f-]{36}$/);
  const postPath = new URL(seller.url()).pathname;

  // The buyer saves it (the save control) and asks a question under it.
  await buyer.goto(postPath);
  await hydrated(buyer);
  await buyer.getByRole("button", { name: "Save", exact: true }).click();
  await expect(buyer.getByRole("button", { name: "Saved!", exact: true })).toBeVisible();
  await buyer.getByRole("link", { name: "Create A Comment" }).click();
  const commentBox = buyer.getByRole("form", { name: "Write a comment" }).first();
  await expect(commentBox.getByRole("textbox", { name: "Comment text" })).toBeFocused();
  await buyer.keyboard.type("Does it come with the chair?");
  await commentBox.getByRole("button", { name: "Reply", exact: true }).click();
  await expect(toast(buyer, "Your reply was sent")).toBeVisible();
  // The buyer waits on the feed with the live stream open (decision 0212).
  await buyer.goto("/home");
  await hydrated(buyer);
  await expect(buyer.locator("html")).toHaveAttribute("data-realtime-role", "leader");
  await expect(notificationsLink(buyer)).toHaveAccessibleName("Notifications");

  // 'Edit' from the listing's menu: the composer's fields and labels, filled with what is stored.
  await seller.reload();
  await hydrated(seller);
  await seller.getByRole("button", { name: "More options for this post" }).click();
  await seller.getByRole("menuitem", { name: "Edit" }).click();
  await expect(seller).toHaveURL(new RegExp(`${postPath}/edit$`));
  const form = seller.getByRole("form", { name: "Edit Post" });
  const text = form.getByRole("textbox", { name: "Post text" });
  await expect(text).toHaveText(title);
  const editDetails = form.getByRole("group", { name: "Listing details (optional)" });
  await expect(editDetails.getByRole("textbox", { name: "Price" })).toHaveValue("40");
  await expect(editDetails.getByRole("radio", { name: "Open to offers" })).toBeChecked();
  await expect(editDetails.getByRole("combobox", { name: "Condition" }).locator("option:checked")).toHaveText(
    "Like new",
  );
  const photos = form.getByRole("list", { name: "Chosen photos and videos" });
  await expect(photos.getByRole("img")).toHaveCount(2);
  expect(await controlsOf(form)).toEqual(composerControls);
  await shoot(seller, "edit-form");

  // A refused edit (a phone number in the text) says why, keeps what was typed and changes nothing.
  const edited = `${title} with its chair`;
  await text.click();
  await seller.keyboard.press("ControlOrMeta+a");
  await seller.keyboard.type(`${edited}, call 405-555-0182`);
  await editDetails.getByRole("textbox", { name: "Price" }).fill("25");
  // Photos: the first removed, two added (3 of at most 10).
  await photos.getByRole("button", { name: "Remove Photo 1 of 2" }).click();
  await form.locator('input[type="file"]').setInputFiles([blue, yellow]);
  await expect(photos.getByRole("img")).toHaveCount(3);
  await form.getByRole("button", { name: "Save", exact: true }).click();
  await expect(toast(seller, "Please remove the phone number")).toBeVisible();
  await expect(seller).toHaveURL(new RegExp(`${postPath}/edit$`));
  await expect(text).toHaveText(`${edited}, call 405-555-0182`);
  await expect(editDetails.getByRole("textbox", { name: "Price" })).toHaveValue("25");
  await expect(photos.getByRole("img")).toHaveCount(3);
  const check = await sellerContext.newPage();
  await check.goto(postPath);
  await expect(check.getByText("$40 · Open to offers")).toBeVisible();
  await expect(check.locator("p").filter({ hasText: /^Edited\b/ })).toHaveCount(0);
  await check.close();

  // The text fixed and the price lowered: saved, back on the post, which says 'Edited'.
  await text.click();
  await seller.keyboard.press("ControlOrMeta+a");
  await seller.keyboard.type(edited);
  await form.getByRole("button", { name: "Save", exact: true }).click();
  await expect(toast(seller, "Your listing was updated.")).toBeVisible();
  await expect(seller).toHaveURL(new RegExp(`${postPath}$`));
  await expect(seller.getByText(edited)).toBeVisible();
  await expect(seller.getByText("$25 · Open to offers")).toBeVisible();
  await expect(seller.getByRole("img", { name: /^Photo \d of 3 from/ })).toHaveCount(3);
  await expect(
    seller
      .locator("p")
      .filter({ hasText: /^Edited\b/ })
      .locator("time"),
  ).toBeVisible();
  await expect(
    seller.getByRole("list", { name: "Comments" }).getByText("Does it come with the chair?"),
  ).toBeVisible();
  await shoot(seller, "post-edited");

  // The buyer hears of it live, once, and the notice opens the listing.
  const line = `Price drop: ${edited} is now $25 (was $40)`;
  await expect(notificationsLink(buyer)).toHaveAccessibleName(/1 unread/);
  await notificationsLink(buyer).click();
  const notices = buyer.getByRole("list", { name: "Notifications" });
  const notice = notices.getByRole("link", { name: new RegExp(line.replace(/[$()]/g, "\\$&")) });
  await expect(notice).toBeVisible();
  await shoot(buyer, "price-drop-notice");
  await notice.click();
  await expect(buyer).toHaveURL(new RegExp(`${postPath}$`));
  await expect(buyer.getByText("$25 · Open to offers")).toBeVisible();

  // Raising the price (edits at least 10 seconds apart) tells no one.
  await seller.waitForTimeout(10_500);
  await seller.getByRole("button", { name: "More options for this post" }).click();
  await seller.getByRole("menuitem", { name: "Edit" }).click();
  await expect(editDetails.getByRole("textbox", { name: "Price" })).toHaveValue("25");
  // The photos as saved: green kept, blue and yellow added.
  await expect(photos.getByRole("img")).toHaveCount(3);
  await editDetails.getByRole("textbox", { name: "Price" }).fill("30");
  await form.getByRole("button", { name: "Save", exact: true }).click();
  await expect(toast(seller, "Your listing was updated.")).toBeVisible();
  await expect(seller.getByText("$30 · Open to offers")).toBeVisible();
  await buyer.goto("/notifications");
  await expect(notices.getByRole("link", { name: /Price drop:/ })).toHaveCount(1);

  // The edit page is the owner's alone: anyone else gets 404, whatever they try.
  const visit = await buyer.goto(`${postPath}/edit`);
  expect(visit?.status()).toBe(404);
  const again = await buyer.goto(`${postPath}/edit`);
  expect(again?.status()).toBe(404);

  await sellerContext.close();
  await buyerContext.close();
});
