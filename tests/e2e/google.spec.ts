import { expect, type Page, test } from "@playwright/test";
import { hydrated } from "./support/page";
import { LANDED_AFTER_SIGN_IN } from "./support/student";

// Decision 0061: Google sign-in through better-auth's genericOAuth plugin against a real
// local OpenID Connect provider (oidc-provider, started by the global setup). Every test
// account there is called 'Taylor Q. Brooks-Smith' (spec 1 §5 → 'Taylor' 'S.').

/** The provider's login form (its port is chosen by the global setup). */
const PROVIDER_LOGIN = /^http:\/\/localhost:\d+\/interaction\/[\w-]+$/;

let sequence = 0;
function uniqueLogin(label: string): string {
  sequence++;
  return `e2e-${label}-${Date.now()}-${process.pid}-${sequence}`;
}

/** The provider's development login form: any login name, any password. */
async function logInAtProvider(page: Page, login: string): Promise<void> {
  await expect(page).toHaveURL(PROVIDER_LOGIN);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
}

/** The signed-in viewer's menu on the feed: its trigger's name and the @username it lists. */
async function accountMenu(page: Page): Promise<{ name: string | null; username: string | null }> {
  await page.goto("/home");
  await hydrated(page);
  const trigger = page.getByRole("button", { name: /^Account menu for / });
  const name = await trigger.getAttribute("aria-label");
  await trigger.click();
  const username = await page.getByRole("menu").getByText(/^@/).first().textContent();
  await page.keyboard.press("Escape");
  return { name, username };
}

test("Continue with Google signs up with the names of spec 1 §5, verified, and signs back in to the same account", async ({
  page,
  browser,
}) => {
  const login = uniqueLogin("google");
  await page.goto("/user_registration");
  await page.getByRole("button", { name: "Continue with Google" }).click();
  await logInAtProvider(page, login);

  // Verified at sign-up (spec 1 §4): no /verify, straight in.
  await expect(page).toHaveURL(LANDED_AFTER_SIGN_IN);
  const first = await accountMenu(page);
  expect(first.name).toBe("Account menu for Taylor S.");
  // spec 1 §5: first plus last name, lower case; -2, -3 … when taken.
  expect(first.username).toMatch(/^@taylors(-\d+)?$/);

  // Later, from the shell's sign-in menu in another browser: the same account, not a new one.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await otherPage.goto("/home");
  await hydrated(otherPage);
  await otherPage.getByRole("button", { name: "Log in or sign up" }).click();
  await otherPage.getByRole("menuitem", { name: "Continue with Google" }).click();
  await logInAtProvider(otherPage, login);
  await expect(otherPage).toHaveURL(LANDED_AFTER_SIGN_IN);
  const again = await accountMenu(otherPage);
  expect(again.name).toBe("Account menu for Taylor S.");
  expect(again.username).toBe(first.username);
  await other.close();
});

test("cancelling at the provider comes back with 'Error: Sign-in process was canceled'", async ({ page }) => {
  await page.goto("/user_registration");
  await page.getByRole("button", { name: "Continue with Google" }).click();
  await expect(page).toHaveURL(PROVIDER_LOGIN);
  await page.getByRole("link", { name: "[ Cancel ]" }).click();

  await expect(page).toHaveURL(/\/user_registration$/);
  await expect(page.getByText("Error: Sign-in process was canceled")).toBeVisible();
  await page.goto("/home");
  await expect(page.getByRole("button", { name: "Log in or sign up" })).toBeVisible();
});

test("without JavaScript, the posted form is redirected to the provider: form-action allows exactly it (decision 0112)", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const response = await page.goto("/user_registration");
  const csp = response?.headers()["content-security-policy"] ?? "";
  expect(csp).toMatch(/form-action 'self' http:\/\/localhost:\d+;/);
  await page.getByRole("button", { name: "Continue with Google" }).click();
  await expect(page).toHaveURL(PROVIDER_LOGIN);
  await context.close();
});

// Decision 0061: /login offered no Google button although the sign-in menu and /user_registration did.
test("/login and /register offer Continue with Google too, and it signs in from /login", async ({ page }) => {
  await page.goto("/register");
  await expect(page.getByRole("button", { name: "Continue with Google", exact: true })).toBeVisible();
  await page.goto("/login");
  await hydrated(page);
  await page.getByRole("button", { name: "Continue with Google", exact: true }).click();
  await logInAtProvider(page, uniqueLogin("google-login"));
  await expect(page).toHaveURL(LANDED_AFTER_SIGN_IN);
  expect((await accountMenu(page)).name).toBe("Account menu for Taylor S.");
});
