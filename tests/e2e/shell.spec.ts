import { expect, type Page, test } from "@playwright/test";
import { hostUrl } from "./support/env";
import { hydrated } from "./support/page";

// Decision 0002: hosts pick the campus, routes, error pages, headers.

test.describe("protected routes (spec 1 §2)", () => {
  for (const path of ["/settings/account", "/logout"]) {
    test(`${path} sends a signed-out visitor to /`, async ({ page, request }) => {
      const response = await request.get(path, { maxRedirects: 0 });
      expect([301, 302, 303, 307, 308]).toContain(response.status());
      expect(new URL(response.headers().location ?? "", hostUrl(null)).pathname).toBe("/");

      await page.goto(path);
      // '/' itself redirects to /home.
      await expect(page).toHaveURL(/\/home$/);
    });
  }
});

test.describe("not found (spec 1 §2 /404)", () => {
  test("/404 shows 'Error 404'", async ({ page }) => {
    await page.goto("/404");
    await expect(page.getByText("Error 404")).toBeVisible();
  });

  test("an unknown path answers 404 with the spec's texts and 'Go To Feed'", async ({ page }) => {
    const response = await page.goto("/this/does/not/exist");
    expect(response?.status()).toBe(404);
    await expect(page.getByText("This page doesn't exist.")).toBeVisible();
    await expect(page.getByText("Try searching for something else.")).toBeVisible();
    const goToFeed = page.getByRole("link", { name: "Go To Feed" });
    await expect(goToFeed).toBeVisible();
    await expect(goToFeed).toHaveAttribute("href", "/home");
  });
});

test.describe("campus hosts (docs/contract.md)", () => {
  test("ut.localhost is UT's community", async ({ page }) => {
    await page.goto(hostUrl("ut", "/home"));
    await expect(page.getByPlaceholder("Search UT Buy / Sell")).toBeVisible();
  });

  test("localhost is OU's community, the default", async ({ page }) => {
    await page.goto(hostUrl(null, "/home"));
    await expect(page.getByPlaceholder("Search OU Buy / Sell")).toBeVisible();
  });

  test("www.localhost is the generic instance's landing", async ({ page }) => {
    await page.goto(hostUrl("www", "/"));
    await expect(page.getByText("Welcome to Campus Buy Sell").first()).toBeVisible();
  });

  // Spec 1 §9: the footers said © 2025 on campuses and © 2024 on the generic site.
  test("the footers of a campus and of the generic site show one year, this one", async ({ page }) => {
    const year = new Date().getUTCFullYear();
    for (const slug of ["ut", "www"]) {
      await page.goto(hostUrl(slug, "/home"));
      await expect(page.locator("footer").filter({ hasText: "Campus Buy Sell" })).toHaveText(
        new RegExp(`© ${year} Campus Buy Sell$`),
      );
    }
  });
});

test.describe("security and serving (decision 0001)", () => {
  test("pages carry the security headers; scripts run only with the response's nonce", async ({
    request,
  }) => {
    const response = await request.get("/home");
    expect(response.status()).toBe(200);
    const headers = response.headers();
    const csp = headers["content-security-policy"] ?? "";
    const nonce = csp.match(/'nonce-([^']+)'/)?.[1];
    expect(nonce, `CSP without a nonce: ${csp}`).toBeTruthy();
    expect(csp).toContain("frame-ancestors");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBeTruthy();

    const html = await response.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag, tag).toContain(`nonce="${nonce}"`);
  });

  test("/healthz answers", async ({ request }) => {
    const response = await request.get("/healthz");
    expect(response.status()).toBe(200);
    expect(await response.json()).toMatchObject({ status: "ok" });
  });

  test("fingerprinted assets are compressed and cached for a long time", async ({ request }) => {
    const html = await (await request.get("/home")).text();
    const asset = html.match(/\/assets\/[^"'\s]+\.js/)?.[0];
    expect(asset, "no /assets/*.js in the page").toBeTruthy();
    const response = await request.get(asset ?? "", { headers: { "accept-encoding": "gzip" } });
    expect(response.status()).toBe(200);
    expect(response.headers()["cache-control"]).toMatch(/immutable/);
    expect(response.headers()["cache-control"]).toMatch(/max-age=31536000/);
    expect(response.headers()["content-encoding"]).toBe("gzip");
  });
});

async function collectErrors(page: Page, url: string): Promise<string[]> {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  await page.goto(url);
  // Hydration (its mismatches are errors), then whatever the running page still fetches.
  await hydrated(page);
  await page.waitForLoadState("networkidle");
  return errors;
}

test.describe("no errors in the browser console (CSP violations show up there)", () => {
  for (const slug of [null, "ut", "www"]) {
    test(`/home on ${slug ?? "localhost"}`, async ({ page }) => {
      expect(await collectErrors(page, hostUrl(slug, "/home"))).toEqual([]);
    });
  }

  test("/register", async ({ page }) => {
    expect(await collectErrors(page, hostUrl(null, "/register"))).toEqual([]);
  });
});
