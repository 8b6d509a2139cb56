import { expect, type Page, test } from "@playwright/test";
import { hostUrl } from "./support/env";
import { linkFrom, uniqueEmail, waitForMail } from "./support/mailbox";
import { hydrated } from "./support/page";
import { LANDED_AFTER_SIGN_IN, signUp, submitRegistration } from "./support/student";

// Decision 0060: passwordless sign-in and sign-up by e-mail link (spec 1 §2 /login and
// /login/sent, §4 'Magic link', §8), the link read from a real SMTP sink.

/** Opens the account menu's trigger on the feed of the link's site and returns its accessible name. */
async function signedInAs(page: Page, link: string): Promise<string | null> {
  await page.goto(new URL("/home", link).toString());
  await hydrated(page);
  return page.getByRole("button", { name: /^Account menu for / }).getAttribute("aria-label");
}

test("log in with an e-mailed link: sent, opened once, and never twice", async ({ page, browser }) => {
  const account = await signUp(page, "link-login");
  await page.context().clearCookies();

  await page.goto("/login?method=noPassword");
  await hydrated(page);
  await page.getByLabel("Email", { exact: true }).fill(account.email);
  await page.getByRole("button", { name: "Send Link", exact: true }).click();

  await expect(page).toHaveURL(/\/login\/sent\?email=[^&]+$/);
  expect(new URL(page.url()).searchParams.get("email")).toBe(account.email.toLowerCase());
  await expect(page.getByText("Email sent.", { exact: true })).toBeVisible();
  await expect(page.getByText(/may take 1 to 2 minutes/)).toBeVisible();

  const mail = await waitForMail(account.email, (m) => m.subject.includes("sign-in link"));
  expect(mail.subject).toBe("Your OU Buy / Sell sign-in link");
  const link = linkFrom(mail, "/login/sent");
  // The link opens the site the student asked from: localhost stays localhost (decision 0110).
  expect(link.startsWith(hostUrl(null, "/login/sent?"))).toBe(true);

  await page.goto(link);
  await expect(page).toHaveURL(LANDED_AFTER_SIGN_IN);
  expect(await signedInAs(page, link)).toBe("Account menu for Jamie R.");

  // A link works once: in another browser it is a failed link.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await otherPage.goto(link);
  await expect(otherPage).toHaveURL(/\/login\?redirect=true$/);
  await expect(otherPage.getByText("Failed: Wrong Email.")).toBeVisible();
  await expect(otherPage.getByRole("button", { name: "Send Link", exact: true })).toBeVisible();
  await other.close();
});

test("sign up by e-mail link: the link carries first and last name and creates the account", async ({
  page,
}) => {
  const email = uniqueEmail("link-signup");
  await page.goto("/register");
  await hydrated(page);
  await page.getByRole("link", { name: "Sign up with an email link" }).click();
  await expect(page).toHaveURL(/\/register\?method=noPassword$/);
  await expect(page.getByLabel("Password", { exact: true })).toHaveCount(0);

  await page.getByLabel("Full name", { exact: true }).fill("morgan LEE");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("I agree to the Terms of Service and Privacy Policy").check();
  await page.getByRole("button", { name: "Send Link", exact: true }).click();

  await expect(page).toHaveURL(/\/login\/sent\?/);
  const sent = new URL(page.url()).searchParams;
  expect([sent.get("email"), sent.get("first"), sent.get("last")]).toEqual([
    email.toLowerCase(),
    "morgan",
    "LEE",
  ]);
  await expect(page.getByText("Email sent.", { exact: true })).toBeVisible();

  const mail = await waitForMail(email, (m) => m.subject.includes("Finish signing up"));
  expect(mail.subject).toBe("Finish signing up for OU Buy / Sell");
  const link = linkFrom(mail, "/login/sent");
  const params = new URL(link).searchParams;
  expect([params.get("first"), params.get("last")]).toEqual(["morgan", "LEE"]);

  await page.goto(link);
  // The link proved the address: no code to enter, straight in.
  await expect(page).toHaveURL(LANDED_AFTER_SIGN_IN);
  expect(await signedInAs(page, link)).toBe("Account menu for Morgan L.");
  await page.getByRole("button", { name: "Account menu for Morgan L." }).click();
  await expect(page.getByRole("menu")).toContainText(/@morganl(-\d+)?/);
});

test("a bad link goes to /login?redirect=true, or /register?redirect=true when registering", async ({
  page,
}) => {
  await page.goto(`/login/sent?email=${encodeURIComponent(uniqueEmail("bad"))}&token=not-a-real-token`);
  await expect(page).toHaveURL(/\/login\?redirect=true$/);
  await expect(page.getByText("Failed: Wrong Email.")).toBeVisible();

  await page.goto(
    `/login/sent?email=${encodeURIComponent(uniqueEmail("bad"))}&first=Morgan&last=Lee&token=not-a-real-token`,
  );
  await expect(page).toHaveURL(/\/register\?redirect=true$/);
  await expect(page.getByText("Failed: Wrong Email.")).toBeVisible();

  // spec 1 §2: /login/sent needs an email.
  await page.goto("/login/sent");
  await expect(page).toHaveURL(/\/login$/);
});

test("an address without an account gets the login's message, and no mail", async ({ page }) => {
  await page.goto("/login?method=noPassword");
  await hydrated(page);
  await page.getByLabel("Email", { exact: true }).fill(uniqueEmail("nobody"));
  await page.getByRole("button", { name: "Send Link", exact: true }).click();
  await expect(page.getByText("Incorrect. Please try again.")).toBeVisible();
  await expect(page).toHaveURL(/\/login\?method=noPassword$/);
});

test("'Claim this account' mails the link to the profile's own address and shows the visitor none of it", async ({
  page,
  browser,
}) => {
  // An account left unverified: signed up, the code never entered.
  const account = { fullName: "Claimy Quill", email: uniqueEmail("claim"), password: "campus-pass-1" };
  await submitRegistration(page, account);

  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  const responses: string[] = [];
  visitorPage.on("response", async (response) => {
    const headers = Object.entries(await response.allHeaders())
      .flat()
      .join("\n");
    const body = await response.text().catch(() => "");
    responses.push(`${response.url()}\n${headers}\n${body}`);
  });
  await visitorPage.goto("/claimyq");
  await hydrated(visitorPage);
  await visitorPage.getByRole("button", { name: "More options for Claimy's profile" }).click();
  await visitorPage.getByRole("menuitem", { name: "Claim this account" }).click();

  await expect(visitorPage).toHaveURL(/\/login\/sent\?claim=claimyq$/);
  await expect(visitorPage.getByText("Email sent.", { exact: true })).toBeVisible();
  await expect(
    visitorPage.getByText(/emailed a sign-in link to the address of the account @claimyq/),
  ).toBeVisible();
  const address = account.email.toLowerCase();
  for (const seen of [...responses, visitorPage.url(), await visitorPage.content()]) {
    expect(seen.toLowerCase()).not.toContain(address);
    expect(seen).not.toContain(encodeURIComponent(address));
  }
  await visitor.close();

  // The owner's mailbox gets a sign-in link that opens the account.
  const mail = await waitForMail(account.email, (m) => m.subject.includes("sign-in link"));
  await page.context().clearCookies();
  await page.goto(linkFrom(mail, "/login/sent"));
  await expect(page).toHaveURL(LANDED_AFTER_SIGN_IN);
});
