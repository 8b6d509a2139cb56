import { expect, type Page, test } from "@playwright/test";
import { seriousAxeViolations } from "./support/axe";
import { hostUrl } from "./support/env";
import { hydrated, toast } from "./support/page";
import { writePhoto } from "./support/photos";
import { createStudent } from "./support/student";

// Decisions 0440–0442: a listing as a buyer and its seller meet it. A visible
// 'Send Message' on someone else's listing (card and page), the photo grid linked from the feed
// with the price on its tiles, the post page's photos as a swipe gallery on a phone, and no
// 'Boost for $5' on a reserved or sold listing. On UCLA's campus, whose feed no other spec reads.

const CAMPUS = "ucla";
test.use({ baseURL: hostUrl(CAMPUS) });

/** Posts a listing at $40 with two photos from the composer; answers its page's address. */
async function postListing(page: Page, title: string, photos: string[]): Promise<string> {
  await page.goto("/home");
  await hydrated(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Create Post" }).click();
  const dialog = page.getByRole("dialog", { name: "Create Post" });
  await expect(dialog.getByRole("textbox", { name: "Post text" })).toBeFocused();
  await page.keyboard.type(title);
  await dialog
    .getByRole("group", { name: "Listing details (optional)" })
    .getByRole("textbox", { name: "Price" })
    .fill("40");
  await dialog.locator('input[type="file"]').setInputFiles(photos);
  await expect(dialog.getByRole("list", { name: "Chosen photos and videos" }).getByRole("img")).toHaveCount(
    photos.length,
  );
  await dialog.getByRole("button", { name: "Post", exact: true }).click();
  const posted = toast(page, "Posted! Your post was sent.");
  await posted.getByRole("link", { name: "View" }).click();
  await expect(page).toHaveURL(/\/post\/[0-9a-f-]{36}$/);
  return new URL(page.url()).pathname;
}

test("a buyer sees Send Message on a listing's card and page, and the grid with its price; the page's photos swipe on a phone", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(150_000);
  const seller = await createStudent(page.context(), { campus: CAMPUS, label: "seller" });
  const title = `Desk chair ${Date.now()}`;
  const red = await writePhoto(testInfo.outputPath("red.png"), { r: 200, g: 40, b: 40 });
  const blue = await writePhoto(testInfo.outputPath("blue.png"), { r: 40, g: 60, b: 200 });
  const postPath = await postListing(page, title, [red, blue]);
  const postId = postPath.split("/").pop() ?? "";

  // The seller's own card and page: no Send Message (spec 2 §2: not for the owner).
  await page.goto("/home");
  const ownCard = page.locator("article").filter({ hasText: title });
  await expect(ownCard.getByText("Price: $40")).toBeVisible();
  await expect(ownCard.getByRole("link", { name: /^Send Message/ })).toHaveCount(0);
  await page.goto(postPath);
  await expect(page.getByText(title)).toBeVisible();
  await expect(page.getByRole("link", { name: /^Send Message/ })).toHaveCount(0);

  // A visitor: Send Message in plain sight on the card; pressed, the sign-in modal (reason 'message').
  const visitor = await browser.newPage({ baseURL: hostUrl(CAMPUS) });
  await visitor.goto("/home");
  await hydrated(visitor);
  const card = visitor.locator("article").filter({ hasText: title });
  const cardButton = card.getByRole("link", { name: "Send Message to Jamie" });
  await expect(cardButton).toBeVisible();
  await cardButton.click();
  const signIn = visitor.getByRole("dialog");
  await expect(signIn.getByText("Log in or sign up to message sellers.")).toBeVisible();
  await visitor.keyboard.press("Escape");
  await expect(signIn).toBeHidden();
  expect(await seriousAxeViolations(visitor)).toEqual([]);

  // The grid is linked from the feed; its tile shows the price.
  const tabs = visitor.getByRole("navigation", { name: "Feed or media" });
  await expect(tabs.getByRole("link", { name: "Feed" })).toHaveAttribute("aria-current", "page");
  await tabs.getByRole("link", { name: "Media" }).click();
  await expect(visitor).toHaveURL(/\/media$/);
  const tile = visitor
    .getByRole("list", { name: "Photos and videos" })
    .getByRole("listitem")
    .filter({ hasText: title });
  await expect(tile.getByText("$40", { exact: true })).toBeVisible();
  await expect(
    visitor.getByRole("navigation", { name: "Feed or media" }).getByRole("link", { name: "Media" }),
  ).toHaveAttribute("aria-current", "page");

  // The post page, on a phone: Send Message under the price, and a gallery that swipes.
  await visitor.setViewportSize({ width: 390, height: 844 });
  await visitor.goto(postPath);
  await hydrated(visitor);
  await expect(visitor.getByRole("link", { name: "Send Message to Jamie" })).toBeVisible();
  const gallery = visitor.getByRole("region", { name: "Photos and videos from Jamie R." });
  const first = gallery.getByRole("img", { name: "Photo 1 of 2 from Jamie R." });
  const second = gallery.getByRole("img", { name: "Photo 2 of 2 from Jamie R." });
  await expect(first).toBeInViewport();
  await expect(second).not.toBeInViewport();
  await expect(gallery.getByText("1 / 2")).toBeVisible();
  // Side by side: the second photo starts where the first ends, at the same height.
  const [box1, box2] = [await first.boundingBox(), await second.boundingBox()];
  expect(box2?.x).toBeGreaterThanOrEqual((box1?.x ?? 0) + (box1?.width ?? 0) - 1);
  await gallery.getByRole("button", { name: "Next photo" }).click();
  await expect(second).toBeInViewport();
  await expect(gallery.getByText("2 / 2")).toBeVisible();
  // Wrapping round: Next on the last photo shows the first again.
  await gallery.getByRole("button", { name: "Next photo" }).click();
  await expect(first).toBeInViewport();
  await expect(gallery.getByText("1 / 2")).toBeVisible();
  // From the keyboard: the focused gallery scrolls with the arrow keys.
  await gallery.getByRole("list").focus();
  await visitor.keyboard.press("ArrowRight");
  await expect(second).toBeInViewport();
  await expect(gallery.getByText("2 / 2")).toBeVisible();
  expect(await seriousAxeViolations(visitor)).toEqual([]);

  // Wide, the photos stack as before and the gallery's controls are gone.
  await visitor.setViewportSize({ width: 1280, height: 800 });
  await expect(second).toBeInViewport({ ratio: 0.1 });
  await expect(gallery.getByRole("button", { name: "Next photo" })).toBeHidden();
  await visitor.close();

  // A signed-in buyer: Send Message opens the new message to the seller, sharing the post.
  const buyerContext = await browser.newContext({ baseURL: hostUrl(CAMPUS) });
  await createStudent(buyerContext, { campus: CAMPUS, label: "buyer", fullName: "Casey Morgan" });
  const buyer = await buyerContext.newPage();
  await buyer.goto("/home");
  await hydrated(buyer);
  await buyer
    .locator("article")
    .filter({ hasText: title })
    .getByRole("link", { name: "Send Message to Jamie" })
    .click();
  await expect(buyer).toHaveURL(new RegExp(`/messages/new\\?to=${seller.username}&post=${postId}$`));
  await buyerContext.close();
});

test("'Boost for $5' and 'Boost Post' are offered on an available listing only, not once reserved or sold", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await createStudent(page.context(), { campus: CAMPUS, label: "booster" });
  const title = `Bookshelf ${Date.now()}`;
  const photo = await writePhoto(testInfo.outputPath("green.png"), { r: 40, g: 160, b: 80 });
  const postPath = await postListing(page, title, [photo]);
  await hydrated(page);

  const menu = page.getByRole("button", { name: "More options for this post" });
  async function expectBoostOffered(offered: boolean) {
    await expect(page.getByRole("link", { name: "Boost for $5" })).toHaveCount(offered ? 1 : 0);
    await menu.click();
    await expect(page.getByRole("menuitem", { name: "Copy link" })).toBeVisible();
    await expect(page.getByRole("menuitem", { name: "Boost Post" })).toHaveCount(offered ? 1 : 0);
    await page.keyboard.press("Escape");
  }

  await expectBoostOffered(true);
  // Available → reserved → sold from the menu (decision 0170), then available again.
  for (const status of ["reserved", "sold"] as const) {
    await menu.click();
    await page.getByRole("menuitem", { name: `Mark as ${status}` }).click();
    await expect(toast(page, `Marked as ${status}.`)).toBeVisible();
    await page.goto(postPath);
    await hydrated(page);
    await expectBoostOffered(false);
  }
  await menu.click();
  await page.getByRole("menuitem", { name: "Mark as available" }).click();
  await expect(toast(page, "Marked as available.")).toBeVisible();
  await page.goto(postPath);
  await hydrated(page);
  await expectBoostOffered(true);
});
