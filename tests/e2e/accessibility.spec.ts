import { expect, test } from "@playwright/test";
import { seriousAxeViolations } from "./support/axe";
import { hostUrl } from "./support/env";

// ARCHITECTURE.md 'tests': axe for accessibility, on each page as it is once its script runs.

const targets = [
  hostUrl(null, "/home"),
  hostUrl(null, "/register"),
  hostUrl(null, "/login"),
  hostUrl(null, "/forgotpassword"),
  hostUrl(null, "/settings/about"),
  hostUrl("www", "/home"),
  hostUrl(null, "/this/does/not/exist"),
];

for (const url of targets) {
  test(`no serious accessibility violations on ${url}`, async ({ page }) => {
    await page.goto(url);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
}
