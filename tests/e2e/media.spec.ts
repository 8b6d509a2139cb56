import { writeFile } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { newAccount, submitCode, type TestAccount } from "./support/accounts";
import { hostUrl } from "./support/env";
import { waitForCode } from "./support/mailbox";

// Issue 4 §5, spec 2 §2 'Media': the media grid of a campus, its tiles at phone
// width, and its empty state. On OU (the host localhost serves).

let sequence = 0;
/** An OU school address nobody has used. */
function schoolAddress(): string {
  sequence++;
  return `media${Date.now()}x${process.pid}x${sequence}@ou.edu`;
}

async function photo(
  path: string,
  color: { r: number; g: number; b: number },
  width: number,
  height: number,
) {
  await writeFile(
    path,
    await sharp({ create: { width, height, channels: 3, background: color } })
      .png()
      .toBuffer(),
  );
}

/**
 * A student who may post (spec 2 §5), through the screens: e-mail verified, school
 * e-mail verified with its PIN, a profile picture and a bio (as posts.spec.ts does).
 */
async function readyStudent(page: Page, avatarPath: string): Promise<TestAccount> {
  const account = newAccount("media");
  await page.goto("/register");
  await page.waitForLoadState("networkidle");
  await page.getByLabel("Full name", { exact: true }).fill(account.fullName);
  await page.getByLabel("Email", { exact: true }).fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByLabel("I agree to the Terms of Service and Privacy Policy").check();
  await page.getByRole("button", { name: "Sign Up", exact: true }).click();
  await expect(page).toHaveURL(/\/verify(\?|$)/);
  await submitCode(page, await waitForCode(account.email));
  await expect(page).toHaveURL(/\/(settings\/account\/school_email|home)$/);
  await page.waitForLoadState("networkidle");

  if (!page.url().endsWith("/settings/account/school_email")) {
    await page.goto("/settings/account/school_email");
    await page.waitForLoadState("networkidle");
  }
  const school = schoolAddress();
  await page.getByRole("textbox", { name: "School email" }).fill(school);
  await page.getByRole("button", { name: "Send PIN", exact: true }).click();
  const heading = page.getByRole("heading", { name: "Enter PIN" });
  const shown = await heading
    .waitFor({ timeout: 8_000 })
    .then(() => true)
    .catch(() => false);
  if (!shown) {
    await page.goto(
      `/settings/account/verify_school_email?${new URLSearchParams({ email: school, campus: "ou" })}`,
    );
  }
  await expect(heading).toBeVisible();
  await page.getByRole("textbox", { name: "PIN" }).fill(await waitForCode(school));
  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(page).toHaveURL(/\/home$/);

  await page.goto("/profile/set-up?goBack=home");
  await page.waitForLoadState("networkidle");
  await page.locator('input[type="file"][name="photo"]').setInputFiles(avatarPath);
  await expect(page.getByRole("button", { name: "Change photo", exact: true })).toBeVisible();
  await page.getByRole("link", { name: "Next", exact: true }).click();
  await page.getByLabel("Bio").fill("Selling what I no longer need.");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Your profile is finished!" })).toBeVisible();
  return account;
}

test("a post with a photo appears in /media; at 390 px its tile opens the post", async ({
  page,
}, testInfo) => {
  test.setTimeout(150_000);
  const avatar = testInfo.outputPath("avatar.png");
  const picture = testInfo.outputPath("bike.png");
  await photo(avatar, { r: 40, g: 120, b: 60 }, 400, 400);
  await photo(picture, { r: 30, g: 90, b: 200 }, 1200, 900);
  await readyStudent(page, avatar);

  const words = `Road bike ${Date.now()}`;
  await page.goto("/home");
  await page.getByText("What are you selling?").first().click();
  const composer = page.getByRole("form", { name: "Create Post" });
  await composer.getByRole("textbox", { name: "Post text" }).click();
  await page.keyboard.type(words);
  await composer.locator('input[type="file"]').setInputFiles([picture]);
  await composer.getByRole("button", { name: "Post", exact: true }).click();
  await expect(
    page.locator("[data-toast-type]").filter({ hasText: "Posted! Your post was sent." }),
  ).toBeVisible();

  // Wide screen: the tile, its square thumbnail, and the overlay with the post's age on hover.
  await page.goto("/media");
  await expect(page.getByRole("link", { name: "Media" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("link", { name: "Feed" })).toHaveAttribute("href", "/home");
  const grid = page.getByRole("list", { name: "Photos and videos" });
  const tile = grid.getByRole("listitem").filter({ hasText: words });
  await expect(tile).toHaveCount(1);
  const thumbnail = tile.locator("img");
  await expect(thumbnail).toHaveAttribute("src", /\/media-files\/images\/posts\/.+-480\.webp$/);
  await expect(thumbnail).toHaveAttribute("width", "480");
  await expect(thumbnail).toHaveAttribute("height", "360");
  await tile.hover();
  await expect(tile.getByText(/ ago$|^just now$/)).toBeVisible();
  // One's own post: no Message, and the share menu offers Delete.
  await expect(tile.getByRole("link", { name: /^Message/ })).toHaveCount(0);
  await tile.getByRole("button", { name: "Share" }).click();
  await expect(page.getByRole("menuitem", { name: "Copy link" })).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "Delete" })).toBeVisible();
  await page.keyboard.press("Escape");

  // spec 2 §2: at 1000 px and below there is no overlay, and tapping a tile opens /post/{id}.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/media");
  const phoneTile = page
    .getByRole("list", { name: "Photos and videos" })
    .getByRole("listitem")
    .filter({ hasText: words });
  await expect(phoneTile.getByRole("button", { name: "Share" })).toBeHidden();
  await phoneTile.getByRole("link", { name: new RegExp(words) }).click();
  await expect(page).toHaveURL(/\/post\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("article", { name: "Post by Jamie R." })).toContainText(words);
});

test("a campus without photos or videos shows 'No Photos / Videos'", async ({ page }) => {
  // No end-to-end test posts on Florida State's campus.
  await page.goto(hostUrl("fsu", "/media"));
  await expect(page.getByRole("heading", { name: "No Photos / Videos" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Photos and videos" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Click To Load More.." })).toHaveCount(0);
});
