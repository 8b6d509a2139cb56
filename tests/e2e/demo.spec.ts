import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, type Page, test } from "@playwright/test";
import { type AppProcess, startAppProcess } from "../../scripts/app-process";
import { APP_PORT } from "./support/env";
import { hydrated, toast } from "./support/page";
import { logIn } from "./support/student";

// Decision 0450: the README's demo accounts can post on a fresh start, and the demo campus looks like a
// marketplace. The shared app under test runs with SEED_DEMO=0, so this file starts its own app
// from the same build on an empty data folder, as `npm start` does the first time.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const artifacts = path.join(root, "tests/e2e/.artifacts");
/** Next to the harness's ports (support/env.ts uses APP_PORT + 3 to + 9). */
const DEMO_PORT = Number(process.env.E2E_DEMO_PORT ?? APP_PORT + 10);

let app: AppProcess;
let dataDir: string;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = mkdtempSync(path.join(tmpdir(), "cbs-e2e-demo-"));
  app = await startAppProcess({
    // Only what the app needs: nothing of the caller's docs/contract.md variables leaks in.
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(DEMO_PORT),
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
    },
    port: DEMO_PORT,
    output: path.join(root, "test-results", "e2e-demo-app.log"),
    name: "demo app",
  }).catch((error) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
});

test.afterAll(async () => {
  await app?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test.use({ baseURL: `http://ou.localhost:${DEMO_PORT}` });

/** The seeded feed as a person would look at it (kept in tests/e2e/.artifacts, git-ignored). */
async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(artifacts, { recursive: true });
  // Lazy photos load once near the viewport: scroll through the page, wait for every photo, go back up.
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0; y < height; y += 600) await page.mouse.wheel(0, 600);
  await expect
    .poll(() =>
      page.evaluate(() => [...document.images].every((img) => img.complete && img.naturalWidth > 0)),
    )
    .toBe(true);
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const fullPage of [false, true]) {
    const file = path.join(artifacts, `${name}${fullPage ? "-full" : ""}.png`);
    await page.screenshot({ path: file, fullPage });
    await test.info().attach(path.basename(file), { path: file, contentType: "image/png" });
  }
}

test("Olivia from the README logs in on OU, sees priced listings with photos and posts without the profile gate", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await logIn(page, "olivia@demo.campusbuysell.test", "campus123");
  await expect(page).toHaveURL(/\/home$/);
  await hydrated(page);

  // The seeded listings: a price line and a photo that loads, as an upload's would.
  const lamp = page.locator("article").filter({ hasText: "Adjustable desk lamp" });
  await expect(lamp.getByText("$18 · Open to offers")).toBeVisible();
  const photo = lamp.locator('img[src*="/media-files/images/posts/"]').first();
  await expect(photo).toBeVisible();
  await expect
    .poll(() => photo.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)))
    .toBeGreaterThan(0);
  const desk = page.locator("article").filter({ hasText: "Mid-century writing desk" });
  await expect(desk.getByText("$85 · Open to offers")).toBeVisible();
  await expect(desk.locator('img[src*="/media-files/images/posts/"]')).toHaveCount(1);
  // The conversation about Marcus's bike waits unread.
  await expect(
    page.getByRole("button", { name: /^Account menu for Olivia M\., \d+ unread notifications and chats$/ }),
  ).toBeVisible();
  // The side menu's links say their name first, then their count ('Messages, 1 unread').
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Messages\s*, 1 unread$/ }),
  ).toBeVisible();

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(lamp.locator("img").first()).toBeVisible();
    await shoot(page, `demo-home-${viewport.width}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // The composer opens, not 'Your profile is not complete' (spec 2 §5): the seed set up her profile.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Create Post" }).click();
  const dialog = page.getByRole("dialog", { name: "Create Post" });
  await expect(dialog.getByRole("textbox", { name: "Post text" })).toBeFocused();
  await expect(page.getByRole("dialog", { name: "Your profile is not complete" })).toHaveCount(0);
  await page.keyboard.type("Bookshelf, five shelves, white. Free to whoever carries it.");
  await dialog.getByRole("button", { name: "Post", exact: true }).click();
  await expect(toast(page, "Posted! Your post was sent.")).toBeVisible();
  await expect(page.locator("article").filter({ hasText: "Bookshelf, five shelves, white." })).toBeVisible();
});
