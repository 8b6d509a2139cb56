import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, type Page, test } from "@playwright/test";
import { hydrated } from "./support/page";
import { createStudent } from "./support/student";

// Decision 0030: screenshots at the phone and desktop widths, kept as artifacts
// (tests/e2e/.artifacts/, git-ignored) for a person to look at.
const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), ".artifacts");
mkdirSync(artifacts, { recursive: true });

const widths = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];
const pages = [
  { name: "home", path: "/home" },
  { name: "register", path: "/register" },
  { name: "settings", path: "/settings" },
];

async function shoot(page: Page, name: string): Promise<void> {
  // The page as the student sees it once its script runs.
  await hydrated(page);
  const file = path.join(artifacts, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await test.info().attach(name, { path: file, contentType: "image/png" });
}

for (const viewport of widths) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    for (const target of pages) {
      test(`${target.path}, signed out`, async ({ page }) => {
        const response = await page.goto(target.path);
        expect(response?.ok()).toBe(true);
        await shoot(page, `${target.name}-${viewport.width}`);
      });
    }

    test("/home and /settings, signed in", async ({ page }) => {
      await createStudent(page.context(), { label: `shots${viewport.width}` });
      await page.goto("/home");
      await shoot(page, `home-signed-in-${viewport.width}`);
      await page.goto("/settings");
      await shoot(page, `settings-signed-in-${viewport.width}`);
    });
  });
}
