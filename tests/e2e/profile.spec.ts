import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { newAccount, submitCode, submitRegistration } from "./support/accounts";
import { waitForCode } from "./support/mailbox";

// Issue 3 §2: the profile set-up wizard with a real upload, the profile page, unknown usernames.

// axe runs in the page over the DevTools protocol (as in accessibility.spec.ts), on signed-in pages here.
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

async function seriousAxeViolations(page: Page): Promise<string[]> {
  await page.waitForLoadState("networkidle");
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    type Result = { violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] };
    const axe = (window as unknown as { axe: { run(options: object): Promise<Result> } }).axe;
    const result = await axe.run({ runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21aa"] } });
    return result.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map(
        (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
      );
  });
}

/** The once-only redirects of spec 1 §4 (school e-mail) may take the first visit elsewhere: go again. */
async function visit(page: Page, path: string): Promise<void> {
  await page.goto(path);
  if (!page.url().endsWith(path)) await page.goto(path);
  await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === path);
}

test("the set-up wizard: a renamed text file is refused, a photo uploads, the bio saves, the profile shows both", async ({
  page,
  browser,
}, testInfo) => {
  const photo = testInfo.outputPath("campus-photo.png");
  await writeFile(
    photo,
    await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 30, g: 110, b: 190 } } })
      .png()
      .toBuffer(),
  );
  const notAPhoto = testInfo.outputPath("not-a-photo.png");
  await writeFile(notAPhoto, "I am a text file with a .png name.\n");

  // Signed up and e-mail-verified through the screens (the school step is not needed for a profile).
  const account = newAccount("profile");
  await submitRegistration(page, account);
  await submitCode(page, await waitForCode(account.email));
  await expect(page).not.toHaveURL(/\/verify(\?|$)/);

  // Before set-up, one's own profile offers 'Set up profile'.
  await visit(page, "/profile");
  await expect(page.getByRole("heading", { level: 1, name: "Jamie R." })).toBeVisible();
  const setUp = page.getByRole("link", { name: "Set up profile", exact: true });
  await expect(setUp).toHaveAttribute("href", "/profile/set-up?goBack=profile");
  const username = ((await page.getByText(/^@/).first().textContent()) ?? "").slice(1);
  expect(username).toMatch(/^jamier/);
  await setUp.click();

  // Step 1: 'Pick a profile picture'.
  await expect(page.getByRole("heading", { name: "Pick a profile picture" })).toBeVisible();
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
