import { defineConfig } from "@playwright/test";
import { BASE_URL, CHROMIUM_ARGS, CHROMIUM_PATH } from "./tests/e2e/support/env";

// End-to-end tests against the built app (`node main.js`), started by the
// global setup with a real SMTP sink. Debian's Chromium, never a downloaded one.
export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  outputDir: "test-results/e2e",
  globalSetup: "./tests/e2e/support/global-setup.ts",
  // 2 cores: the app, its embedded database and the browsers share them.
  workers: 2,
  fullyParallel: false,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: "list",
  use: {
    baseURL: BASE_URL,
    browserName: "chromium",
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    viewport: { width: 1280, height: 800 },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    actionTimeout: 10_000,
    navigationTimeout: 20_000,
    // Decision 0253: the app's service worker would answer /assets/ from its cache, out of reach of
    // page.route (loadWithScriptsHeld); only the specs about it (notifications.spec.ts) allow it.
    serviceWorkers: "block",
  },
});
