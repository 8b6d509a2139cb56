import { writeFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import sharp from "sharp";
import { seriousAxeViolations } from "./support/axe";
import {
  commitsWhileIdle,
  countReactCommits,
  disabledMoments,
  hydrated,
  loadWithScriptsHeld,
  toast,
  watchDisabled,
} from "./support/page";
import { writePhoto } from "./support/photos";
import { createStudent, signUp } from "./support/student";

// Decision 0051: the profile set-up wizard with a real upload, the profile page, unknown usernames.

test("the set-up wizard: a renamed text file is refused, a photo uploads, the bio saves, the profile shows both", async ({
  page,
  browser,
}, testInfo) => {
  const photo = await writePhoto(
    testInfo.outputPath("campus-photo.png"),
    { r: 30, g: 110, b: 190 },
    800,
    600,
  );
  const notAPhoto = testInfo.outputPath("not-a-photo.png");
  await writeFile(notAPhoto, "I am a text file with a .png name.\n");

  // Signed up and e-mail-verified through the screens (the school step is not needed for a profile).
  const account = await signUp(page, "profile");
  // spec 1 §4: the once-per-session school redirect has happened, so it takes no later visit elsewhere.
  await expect(page).toHaveURL(/\/settings\/account\/school_email$/);

  // Before set-up, one's own profile offers 'Set up profile'.
  await page.goto("/profile");
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole("heading", { level: 1, name: "Jamie R." })).toBeVisible();
  const setUp = page.getByRole("link", { name: "Set up profile", exact: true });
  await expect(setUp).toHaveAttribute("href", "/profile/set-up?goBack=profile");
  const username = ((await page.getByText(/^@/).first().textContent()) ?? "").slice(1);
  expect(username).toMatch(/^jamier/);
  await setUp.click();

  // Step 1: 'Pick a profile picture' (its script runs: the click may have loaded a new document).
  await expect(page.getByRole("heading", { name: "Pick a profile picture" })).toBeVisible();
  await hydrated(page);
  expect(await seriousAxeViolations(page)).toEqual([]);
  await expect(page.getByRole("link", { name: "Skip", exact: true })).toBeVisible();
  const fileInput = page.locator('input[type="file"][name="photo"]');
  await expect(fileInput).toHaveAttribute("accept", /\.png/);
  // Once JavaScript runs, the button opens the picker and choosing a file uploads it.
  await expect(fileInput).toBeHidden();

  await fileInput.setInputFiles(notAPhoto);
  await expect(page.getByRole("alert").filter({ hasText: "Only photos are allowed!" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Upload photo", exact: true })).toBeVisible();

  await fileInput.setInputFiles(photo);
  await expect(page.getByRole("button", { name: "Change photo", exact: true })).toBeVisible();
  const preview = page.getByRole("img", { name: "Jamie R." });
  const src = (await preview.getAttribute("src")) ?? "";
  expect(src).toMatch(/^\/media-files\/images\/profilePics\/[^/]+\/[0-9a-f]+-480\.webp$/);
  const served = await page.request.get(src);
  expect(served.status()).toBe(200);
  expect(served.headers()["content-type"]).toBe("image/webp");
  expect(served.headers()["cache-control"]).toContain("immutable");
  expect(served.headers()["x-content-type-options"]).toBe("nosniff");
  const stored = await sharp(await served.body()).metadata();
  expect([stored.format, stored.width, stored.height, stored.exif]).toEqual(["webp", 480, 480, undefined]);

  // Step 2: 'Describe yourself'. Next while the text is empty, Save once it differs from the stored bio.
  await page.getByRole("link", { name: "Next", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Describe yourself" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Next", exact: true })).toBeVisible();
  const bio = "Sophomore in mechanical engineering. Selling a mini fridge.";
  await page.getByLabel("Bio").fill(bio);
  await expect(page.getByText(`${bio.length} / 160`)).toBeVisible();
  await page.getByRole("button", { name: "Save", exact: true }).click();

  // Step 3: finished, the button named by the origin (goBack=profile).
  await expect(page.getByRole("heading", { name: "Your profile is finished!" })).toBeVisible();
  await page.getByRole("link", { name: "Back to Profile", exact: true }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole("heading", { level: 1, name: "Jamie R." })).toBeVisible();
  await expect(page.getByText(bio)).toBeVisible();
  await expect(page.getByRole("link", { name: "Edit Profile", exact: true })).toHaveAttribute(
    "href",
    "/profile/edit",
  );
  await expect(page.getByText("No posts yet")).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);
  await page.goto("/profile/edit");
  await expect(page.getByLabel("First name")).toHaveValue("Jamie");
  expect(await seriousAxeViolations(page)).toEqual([]);

  // Back in the wizard, the stored bio unchanged reads Next, not Save.
  await page.goto("/profile/set-up?step=2");
  await hydrated(page);
  await expect(page.getByLabel("Bio")).toHaveValue(bio);
  await expect(page.getByRole("link", { name: "Next", exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Save", exact: true })).toHaveCount(0);

  // A signed-out visitor sees the public profile at /{username}, with 'Send Message'.
  const visitor = await browser.newPage();
  await visitor.goto(`/${username.toUpperCase()}`);
  await expect(visitor.getByRole("heading", { level: 1, name: "Jamie R." })).toBeVisible();
  await expect(visitor.getByRole("link", { name: "Send Message", exact: true })).toBeVisible();
  await expect(visitor.locator('meta[property="og:title"]')).toHaveAttribute(
    "content",
    `Jamie R. (@${username})`,
  );
  await expect(visitor.getByText(account.email)).toHaveCount(0);
  await visitor.close();
});

test("a skipped photo ends the wizard on what is still missing, and 'Continue Posting' only once posting works", async ({
  page,
}, testInfo) => {
  // Decision 0448: skipping the photo ended on 'Your profile is finished!' and 'Continue Posting', which
  // opened 'Your profile is not complete' (spec 2 §5: posting needs a picture and a bio).
  test.setTimeout(90_000);
  const photo = await writePhoto(testInfo.outputPath("wizard-photo.png"), { r: 200, g: 80, b: 40 }, 600, 600);
  await createStudent(page.context(), { label: "wizard-skip", profile: false });
  await page.goto("/profile/set-up?goBack=create_home");
  await hydrated(page);
  await page.getByRole("link", { name: "Skip", exact: true }).click();
  await page.getByLabel("Bio").fill("Freshman in nursing. Selling textbooks.");
  await page.getByRole("button", { name: "Save", exact: true }).click();

  const missing = page.getByRole("heading", { name: "Your profile still needs a profile picture" });
  await expect(missing).toBeVisible();
  await expect(missing).toBeFocused();
  await expect(
    page.getByText("To post, add a profile picture. You can also add it later from Edit Profile."),
  ).toBeVisible();
  await expect(page.getByRole("heading", { name: "Your profile is finished!" })).toBeHidden();
  await expect(page.getByRole("link", { name: "Continue Posting" })).toHaveCount(0);
  // 'Not now' leaves for the feed, not for the composer that would ask again.
  await expect(page.getByRole("link", { name: "Not now", exact: true })).toHaveAttribute("href", "/home");
  expect(await seriousAxeViolations(page)).toEqual([]);

  // The step offers to add what is missing: back to the picture, then on to the end.
  await page.getByRole("link", { name: "Add a picture", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Pick a profile picture" })).toBeFocused();
  await page.locator('input[type="file"][name="photo"]').setInputFiles(photo);
  await expect(page.getByRole("button", { name: "Change photo", exact: true })).toBeVisible();
  await page.getByRole("link", { name: "Next", exact: true }).click();
  await page.getByRole("link", { name: "Next", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Your profile is finished!" })).toBeVisible();
  await page.getByRole("link", { name: "Continue Posting", exact: true }).click();
  await expect(page).toHaveURL(/\/create\/post\?goBack=home$/);
  await hydrated(page);
  await expect(page.getByRole("form", { name: "Create Post" })).toBeVisible();
  await expect(page.getByRole("dialog", { name: "Your profile is not complete" })).toHaveCount(0);
});

test("a name and bio typed on /profile/edit before the page's script runs keep 'Save' usable, and save", async ({
  page,
}) => {
  await createStudent(page.context(), { label: "profile-early", profile: false });
  const bio = "Junior in architecture. Selling drafting tools.";
  // spec 1 §4: Save is disabled while nothing changed, which the script must judge by what is typed.
  await watchDisabled(page, "Save");
  await countReactCommits(page);
  await loadWithScriptsHeld(page, "/profile/edit", async () => {
    await page.getByLabel("First name").fill("Jordan");
    await page.getByLabel("Bio").fill(bio);
  });
  expect(await disabledMoments(page)).toEqual([]);
  expect(await commitsWhileIdle(page)).toBeLessThan(5);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(toast(page, "Profile Updated")).toBeVisible();
  await expect(page.getByLabel("First name")).toHaveValue("Jordan");
  await expect(page.getByLabel("Bio")).toHaveValue(bio);
  // Saved: nothing differs from the stored profile any more.
  await expect(page.getByRole("button", { name: "Save", exact: true })).toBeDisabled();
});

test("a bio typed on /profile/edit before the page's script runs, over a stored one, survives hydration and saves", async ({
  page,
}) => {
  // The student has a stored bio: React's hydration put the stored text back over what was typed.
  await createStudent(page.context(), { label: "profile-early-bio" });
  const bio = "Senior in chemistry. Selling lab goggles.";
  await loadWithScriptsHeld(page, "/profile/edit", async () => {
    await expect(page.getByLabel("Bio")).toHaveValue("Selling what I no longer need.");
    await page.getByLabel("Bio").fill(bio);
  });
  await expect(page.getByLabel("Bio")).toHaveValue(bio);
  await expect(page.getByText(`${bio.length} / 160`)).toBeVisible();
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(toast(page, "Profile Updated")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Bio")).toHaveValue(bio);
});

test("an unknown username answers 404 with 'This page doesn't exist.' and a Search button", async ({
  page,
}) => {
  const response = await page.goto("/some-unknown-user");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "This page doesn't exist." })).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "Search", exact: true })).toHaveAttribute(
    "href",
    "/search",
  );
});
