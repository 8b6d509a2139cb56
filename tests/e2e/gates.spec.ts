import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, type BrowserContext, expect, test } from "@playwright/test";
import { startAppProcess } from "../../scripts/app-process";
import { FIREWALL_PORT, GEO_PORT } from "./support/env";
import { hydrated } from "./support/page";

// Decision 0070, spec 1 §1 and §6: the geo gate. It is off in the shared app under
// test (GEO_GATE defaults to 0 outside production), so this file starts app
// processes of its own from the same build: one with GEO_GATE=1 and
// TRUST_PROXY=1, driven with X-Forwarded-For and Playwright's `timezoneId`, and
// one with FIREWALL=1.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

// Addresses of the offline database (server/geo/geo.test.ts): Google's resolver
// sits in the US (America/Chicago), 81.2.69.142 in Great Britain.
const US_ADDRESS = "8.8.8.8";
const GB_ADDRESS = "81.2.69.142";

interface GatedApp {
  url(path: string): string;
  stop(): Promise<void>;
}

async function startGatedApp(port: number, flags: Record<string, string>, name: string): Promise<GatedApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `cbs-e2e-${name}-`));
  const logFile = path.join(root, "test-results", `e2e-${name}-app.log`);
  // Only what the app needs: nothing of the caller's docs/contract.md variables leaks in.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    DATA_DIR: dataDir,
    SEED_DEMO: "0",
    LOG_LEVEL: "warn",
    // The gates are checked on OU's pages as a visitor sees them (decision 0135: private unless opened).
    PUBLIC_CAMPUSES: "ou",
    ...flags,
  };
  const app = await startAppProcess({ env, port, output: logFile, name: `${name} app` }).catch((error) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  const stop = async () => {
    await app.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { url: app.url, stop };
}

/** A browser as a visitor from `address` whose system clock is set to `timezoneId`. */
function visitor(browser: Browser, timezoneId: string, address?: string): Promise<BrowserContext> {
  return browser.newContext({
    timezoneId,
    ...(address ? { extraHTTPHeaders: { "X-Forwarded-For": address } } : {}),
  });
}

test.describe("geo gate: GEO_GATE=1, TRUST_PROXY=1 (spec 1 §6)", () => {
  test.describe.configure({ mode: "serial" });
  let app: GatedApp;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    app = await startGatedApp(GEO_PORT, { GEO_GATE: "1", TRUST_PROXY: "1" }, "geo-gate");
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test("a US address whose browser is in its time zone reaches /home, again and again", async ({
    browser,
  }) => {
    const context = await visitor(browser, "America/Chicago", US_ADDRESS);
    const page = await context.newPage();
    await page.goto(app.url("/home"));
    // Once hydrated, the app has reported the zone too (and checked this page again with it).
    await hydrated(page);
    await expect
      .poll(async () => (await context.cookies()).find((c) => c.name === "tz")?.value)
      .toBe(encodeURIComponent("America/Chicago"));
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByRole("heading", { name: "Home", exact: true })).toBeVisible();

    await page.goto(app.url("/login"));
    await expect(page).toHaveURL(/\/login$/);
    await page.goto(app.url("/home"));
    await expect(page.getByRole("heading", { name: "Home", exact: true })).toBeVisible();
    await context.close();
  });

  test("the same address with a browser in Tokyo is sent to /404 once its time zone is known", async ({
    browser,
  }) => {
    const context = await visitor(browser, "Asia/Tokyo", US_ADDRESS);
    const page = await context.newPage();
    // The first page is answered before the browser could report its zone; the
    // report, right after, makes the app check again and leave for /404.
    await page.goto(app.url("/home"));
    await expect(page).toHaveURL(/\/404$/);
    await expect(page.getByText("Error 404")).toBeVisible();

    // From then on the server refuses the gated pages outright (the request API shares the
    // context's cookies, so it sends the reported zone; the address header is given again).
    // '/' first redirects to /home (the deepest route's redirect wins), which is refused.
    const headers = { "X-Forwarded-For": US_ADDRESS };
    for (const pathname of ["/", "/home", "/messages", "/user_registration", "/login", "/register"]) {
      const response = await context.request.get(app.url(pathname), { headers });
      expect(new URL(response.url()).pathname, pathname).toBe("/404");
      expect(response.status(), pathname).toBe(404);
    }
    const refused = await context.request.get(app.url("/home"), { maxRedirects: 0, headers });
    expect(refused.status()).toBe(302);
    expect(refused.headers().location).toBe("/404");
    // Pages the spec does not name stay open.
    const open = await context.request.get(app.url("/settings/about"), { maxRedirects: 0, headers });
    expect(open.status()).toBe(200);
    await context.close();
  });

  test("a client-side navigation to a gated page is checked too", async ({ browser }) => {
    const context = await visitor(browser, "Asia/Tokyo", US_ADDRESS);
    const page = await context.newPage();
    await page.goto(app.url("/settings/about"));
    await hydrated(page);
    await expect(page).toHaveURL(/\/settings\/about$/);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home" }).click();
    await expect(page).toHaveURL(/\/404$/);
    await context.close();
  });

  test("an address outside the US is sent to /404", async ({ browser }) => {
    const context = await visitor(browser, "Europe/London", GB_ADDRESS);
    const page = await context.newPage();
    await page.goto(app.url("/home"));
    await expect(page).toHaveURL(/\/404$/);
    await expect(page.getByText("Error 404")).toBeVisible();
    await page.goto(app.url("/register"));
    await expect(page).toHaveURL(/\/404$/);
    await context.close();
  });

  test("the sign-in dropdown leads a kept-out visitor to /404 (spec 1 §2)", async ({ browser }) => {
    const context = await visitor(browser, "Europe/London", GB_ADDRESS);
    const page = await context.newPage();
    // Find Your School is not a gated page, so it opens; its sign-in menu is.
    await page.goto(app.url("/search_schools"));
    await hydrated(page);
    await page.getByRole("button", { name: "Log in or sign up" }).click();
    await page.getByRole("menuitem", { name: "Continue with Email" }).click();
    await expect(page).toHaveURL(/\/404$/);
    await context.close();
  });

  test("loopback always passes", async ({ browser }) => {
    const context = await visitor(browser, "Asia/Tokyo");
    const page = await context.newPage();
    await page.goto(app.url("/home"));
    await hydrated(page);
    await page.goto(app.url("/home"));
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByRole("heading", { name: "Home", exact: true })).toBeVisible();
    await context.close();
  });
});

test.describe("firewall: FIREWALL=1 (spec 1 §1, docs/contract.md)", () => {
  test.describe.configure({ mode: "serial" });
  let app: GatedApp;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    app = await startGatedApp(FIREWALL_PORT, { FIREWALL: "1" }, "firewall");
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test("sends everyone to /404, even from loopback with a matching time zone", async ({ browser }) => {
    const context = await visitor(browser, "America/Chicago");
    const page = await context.newPage();
    for (const pathname of ["/", "/home", "/login"]) {
      await page.goto(app.url(pathname));
      await expect(page, pathname).toHaveURL(/\/404$/);
    }
    await expect(page.getByText("Error 404")).toBeVisible();
    await context.close();
  });
});
