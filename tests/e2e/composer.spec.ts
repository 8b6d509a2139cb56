import { expect, test } from "@playwright/test";
import { hostUrl } from "./support/env";
import { hydrated, toast } from "./support/page";
import { writePhoto } from "./support/photos";
import { createStudent } from "./support/student";

// Decision 0090, spec 2 §2, §4, §5: the post composer — the modal on wide screens, the full
// page at 390 px, photos, a category, the 500 rule and the profile gate — through the screens.
// On MIT's campus, whose feed no other spec reads (decision 0155); students from the fixture.

const CAMPUS = "mit";
test.use({ baseURL: hostUrl(CAMPUS) });

test("a finished member posts text, a category and two photos; 501 characters are refused; at 390 px the add button opens /create/post", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const red = await writePhoto(testInfo.outputPath("red.png"), { r: 200, g: 40, b: 40 });
  const green = await writePhoto(testInfo.outputPath("green.png"), { r: 40, g: 160, b: 80 });
  await createStudent(page.context(), { campus: CAMPUS, label: "composer" });

  // Wide screen: 'Create Post' opens the composer in a modal (spec 2 §2).
  await page.goto("/home");
  await hydrated(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Create Post" }).click();
  const dialog = page.getByRole("dialog", { name: "Create Post" });
  const text = dialog.getByRole("textbox", { name: "Post text" });
  await expect(text).toBeFocused();
  await expect(dialog.getByText("What are you selling?")).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Post", exact: true })).toBeDisabled();

  await page.keyboard.type("Desk lamp, barely used.");
  await page.keyboard.press("Enter");
  await page.keyboard.type("Pick up at the library.");
  // 23 + 23 characters and one line break counted as 2 (spec 2 §5).
  await expect(dialog.getByText("48 / 500")).toBeVisible();

  await dialog.getByRole("button", { name: /Category/ }).click();
  await page
    .getByRole("dialog", { name: "Choose a category" })
    .getByRole("button", { name: "Furniture" })
    .click();
  await expect(dialog.getByRole("button", { name: /Category: Furniture/ })).toBeVisible();

  const fileInput = dialog.locator('input[type="file"]');
  await expect(fileInput).toHaveAttribute("multiple", "");
  await fileInput.setInputFiles([red, green]);
  const previews = dialog.getByRole("list", { name: "Chosen photos and videos" });
  await expect(previews.getByRole("img")).toHaveCount(2);
  await expect(previews.getByRole("img", { name: "Photo 2 of 2" })).toBeVisible();

  await dialog.getByRole("button", { name: "Post", exact: true }).click();
  const posted = toast(page, "Posted! Your post was sent.");
  // The toast is gone after 2.6 s (spec 1 §9): its 'View' is followed first, the feed checked after.
  await Promise.all([expect(posted).toHaveAttribute("data-toast-type", "okay"), expect(dialog).toBeHidden()]);
  await posted.getByRole("link", { name: "View" }).click();
  await expect(page).toHaveURL(/\/post\/[0-9a-f-]{36}$/);
  await expect(page.getByText("Desk lamp, barely used.")).toBeVisible();
  // Back on the feed: the new post, with its category.
  await page.goBack();
  await expect(page).toHaveURL(/\/home$/);
  const card = page.locator("article").filter({ hasText: "Desk lamp, barely used." }).first();
  await expect(card).toBeVisible();
  await expect(card.getByText("Pick up at the library.")).toBeVisible();
  await expect(card.getByText("Furniture")).toBeVisible();

  // The 500 rule: the 501st character is refused with the danger alert; the draft stays at 500.
  await page.goto("/home");
  await hydrated(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Create Post" }).click();
  await expect(text).toBeFocused();
  await page.keyboard.insertText("x".repeat(500));
  await expect(dialog.getByText("500 / 500")).toBeVisible();
  await page.keyboard.type("y");
  const tooMany = toast(page, "Error: Too many characters!");
  await expect(tooMany).toBeVisible();
  await expect(tooMany).toHaveAttribute("data-toast-type", "danger");
  await expect(dialog.getByText("500 / 500")).toBeVisible();
  await expect(text).toHaveText("x".repeat(500));

  // Closing a draft asks 'Discard Post?' (Discard / Keep Writing).
  await page.keyboard.press("Escape");
  const discard = page.getByRole("dialog", { name: "Discard Post?" });
  await discard.getByRole("button", { name: "Keep Writing" }).click();
  await expect(text).toHaveText("x".repeat(500));
  await dialog.getByRole("button", { name: "Close" }).click();
  await discard.getByRole("button", { name: "Discard", exact: true }).click();
  await expect(dialog).toBeHidden();

  // 390 px: the bottom bar's add button opens the full-page composer (spec 2 §2).
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/home");
  await hydrated(page);
  await page.getByRole("navigation", { name: "Tabs" }).getByRole("link", { name: "Create post" }).click();
  await expect(page).toHaveURL(/\/create\/post\?goBack=home$/);
  await expect(page.getByRole("heading", { level: 1, name: "Create Post" })).toBeVisible();
  await page.getByRole("textbox", { name: "Post text" }).click();
  await page.keyboard.type("Mini fridge from the phone.");
  await page.getByRole("button", { name: "Post", exact: true }).click();
  await expect(toast(page, "Posted! Your post was sent.")).toBeVisible();
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByText("Mini fridge from the phone.")).toBeVisible();
});

test("a member without a profile picture and bio gets 'Your profile is not complete'", async ({ page }) => {
  test.setTimeout(90_000);
  await createStudent(page.context(), { campus: CAMPUS, label: "composer-noprofile", profile: false });
  await page.goto("/home");
  await hydrated(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Create Post" }).click();
  const modal = page.getByRole("dialog", { name: "Your profile is not complete" });
  await expect(modal).toBeVisible();
  await expect(modal.getByText("Please pick a profile picture and add a bio before posting")).toBeVisible();
  await expect(modal.getByRole("button", { name: "Cancel" })).toBeVisible();
  await expect(modal.getByRole("link", { name: "Set up profile" })).toHaveAttribute(
    "href",
    "/profile/set-up?goBack=create_home",
  );
  // The composer did not open.
  await expect(page.getByRole("dialog", { name: "Create Post" })).toHaveCount(0);
  await modal.getByRole("link", { name: "Set up profile" }).click();
  await expect(page.getByRole("dialog", { name: "Set up your profile" })).toBeVisible();
});
