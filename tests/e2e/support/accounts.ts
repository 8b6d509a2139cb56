import { expect, type Page } from "@playwright/test";
import { uniqueEmail, waitForCode } from "./mailbox";

export interface TestAccount {
  fullName: string;
  email: string;
  password: string;
}

export function newAccount(label: string): TestAccount {
  return { fullName: "Jamie Rivera", email: uniqueEmail(label), password: "campus-pass-1" };
}

/** Fills and sends the sign-up form (spec 1 §2 /register); lands on /verify. */
export async function submitRegistration(page: Page, account: TestAccount): Promise<void> {
  await page.goto("/register");
  await page.getByLabel("Full name", { exact: true }).fill(account.fullName);
  await page.getByLabel("Email", { exact: true }).fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByLabel("I agree to the Terms of Service and Privacy Policy").check();
  await page.getByRole("button", { name: "Sign Up", exact: true }).click();
  await expect(page).toHaveURL(/\/verify(\?|$)/);
}

export async function submitCode(page: Page, code: string): Promise<void> {
  await page.getByLabel("Verification code", { exact: true }).fill(code);
  await page.getByRole("button", { name: "Verify", exact: true }).click();
}

/**
 * Where a signed-in student lands after verifying or logging in: /home, which on
 * a campus host sends a student without a school e-mail on to school
 * verification once (spec 1 §4).
 */
export const LANDED_AFTER_SIGN_IN = /\/(home|settings\/account\/school_email)$/;

/** A verified, signed-in account made through the screens, as a student would. */
export async function signUp(page: Page, label: string): Promise<TestAccount> {
  const account = newAccount(label);
  await submitRegistration(page, account);
  await submitCode(page, await waitForCode(account.email));
  await expect(page).toHaveURL(LANDED_AFTER_SIGN_IN);
  return account;
}

export async function logIn(page: Page, email: string, password: string, path = "/login"): Promise<void> {
  await page.goto(path);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log In", exact: true }).click();
}
