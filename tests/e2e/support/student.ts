import { type BrowserContext, expect, type Page } from "@playwright/test";
import type { TestStudent, TestStudentRequest } from "../../../server/dev/test-student";
import { APP_PORT, hostUrl } from "./env";
import { uniqueEmail, waitForCode } from "./mailbox";
import { hydrated } from "./page";

// Students for the specs. `createStudent` makes one directly (decision 0155: the app's
// development-only POST /dev/test-student, as Epic Stack's login() fixture does), in well under
// a second; every spec uses it unless signing up, verifying or setting up a profile is its
// subject. Those specs drive the screens with the flows below, as a student would.

/**
 * A verified student of `campus` (default OU) with a school e-mail, a photo and a bio (unless
 * `profile: false`), and the `posts` asked for, signed in: the session cookie is added to
 * `context` for the campus's host (and for localhost when the campus is OU, which it serves).
 */
export async function createStudent(
  context: BrowserContext,
  request: TestStudentRequest = {},
): Promise<TestStudent> {
  const response = await fetch(`http://127.0.0.1:${APP_PORT}/dev/test-student`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(request),
  });
  if (response.status !== 201)
    throw new Error(`POST /dev/test-student: ${response.status} ${await response.text()}`);
  const student = (await response.json()) as TestStudent;
  const hosts = student.campusId === "ou" ? [null, "ou"] : [student.campusId];
  await context.addCookies(hosts.map((slug) => ({ ...student.cookie, url: hostUrl(slug) })));
  return student;
}

export interface TestAccount {
  fullName: string;
  email: string;
  password: string;
}

export function newAccount(label: string): TestAccount {
  return { fullName: "Jamie Rivera", email: uniqueEmail(label), password: "campus-pass-1" };
}

/**
 * Fills and sends the sign-up form (spec 1 §2 /register) on a campus host (`slug`, or
 * localhost, which serves OU); lands on /verify. Sign Up is disabled until the form is
 * complete once the page's script runs, so the form is filled after hydration.
 */
export async function submitRegistration(
  page: Page,
  account: TestAccount,
  slug: string | null = null,
): Promise<void> {
  await page.goto(hostUrl(slug, "/register"));
  await hydrated(page);
  await page.getByLabel("Full name", { exact: true }).fill(account.fullName);
  await page.getByLabel("Email", { exact: true }).fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByLabel("I agree to the Terms of Service and Privacy Policy").check();
  await page.getByRole("button", { name: "Sign Up", exact: true }).click();
  await expect(page).toHaveURL(/\/verify(\?|$)/);
}

/** Enters a code on /verify (reached from the sign-up form, client-side). */
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

/** A verified, signed-in account made through the screens on a campus host (`slug`, or OU). */
export async function signUp(page: Page, label: string, slug: string | null = null): Promise<TestAccount> {
  const account = newAccount(label);
  await submitRegistration(page, account, slug);
  await submitCode(page, await waitForCode(account.email));
  await expect(page).toHaveURL(LANDED_AFTER_SIGN_IN);
  return account;
}

export async function logIn(page: Page, email: string, password: string, path = "/login"): Promise<void> {
  await page.goto(path);
  await hydrated(page);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log In", exact: true }).click();
}
