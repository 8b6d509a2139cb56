import { expect as baseExpect, type Page, test } from "@playwright/test";
import { uniqueEmail, waitForCode } from "./support/mailbox";
import { hydrated } from "./support/page";
import { createStudent, logIn, type TestAccount } from "./support/student";

// Decision 0040, spec 1 §2 'Settings', §5 and §8: each account page's happy path and its main message.

// Mails (PINs, links) and scrypt on 2 shared cores: slow steps get room.
test.use({ actionTimeout: 20_000 });
test.describe.configure({ timeout: 120_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

/**
 * A signed-in, e-mail-verified student without a school e-mail, from the fixture (decision 0155),
 * past the once-per-session school redirect of spec 1 §4 (it lands them on school_email), as after sign-up.
 */
async function student(page: Page, label: string): Promise<TestAccount> {
  const account = await createStudent(page.context(), { label, school: false, profile: false });
  await page.goto("/home");
  await expect(page).toHaveURL(/\/settings\/account\/school_email$/);
  return account;
}

const save = (page: Page) => page.getByRole("button", { name: "Save", exact: true });

/** Opens an account page, its script running (its forms validate as the student types). */
async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await hydrated(page);
}

/** Opens an account form: spec 1 §4, its Save button is disabled while nothing changed. */
async function openForm(page: Page, path: string): Promise<void> {
  await open(page, path);
  await expect(save(page)).toBeDisabled();
}
const textbox = (page: Page, name: string) => page.getByRole("textbox", { name, exact: true });
/** An overview row by its exact label ('Email' is not 'School Email'). */
const row = (page: Page, label: string) =>
  page
    .getByRole("article")
    .getByRole("listitem")
    .filter({ has: page.getByText(label, { exact: true }) });

async function expectUpdated(page: Page): Promise<void> {
  await expect(page.getByText("Account Updated!", { exact: true })).toBeVisible();
}

test("the account overview lists the spec's rows with their defaults", async ({ page }) => {
  const account = await student(page, "overview");
  await open(page, "/settings/account");
  await expect(page.getByRole("heading", { name: "Account Settings" })).toBeVisible();
  await expect(row(page, "Username")).toContainText("jamier");
  await expect(row(page, "Password")).toContainText("not available");
  await expect(row(page, "Email")).toContainText(account.email.toLowerCase());
  await expect(row(page, "Phone")).toContainText("click to add");
  await expect(row(page, "School Email")).toContainText("Join your campus");
  await expect(row(page, "Verified")).toContainText("No");
  await expect(row(page, "Account created")).toContainText(/[A-Z][a-z]+ \d{1,2}, \d{4}/);
  await expect(row(page, "Gender")).toContainText("None");
  await expect(row(page, "Birth date")).toContainText("None");

  await row(page, "Username").getByRole("link").click();
  await expect(page).toHaveURL(/\/settings\/account\/screen_name$/);
});

test("username: the spec's messages, then saved in lower case", async ({ page }) => {
  await student(page, "username");
  await openForm(page, "/settings/account/screen_name");

  await textbox(page, "Username").fill("abc");
  await save(page).click();
  await expect(page.getByText("Must be longer than 4 characters.", { exact: true })).toBeVisible();
  await textbox(page, "Username").fill("jamie rivera");
  await expect(page.getByText("Only letters, numbers, _ and -", { exact: true })).toBeVisible();

  const wanted = `Jamie_${Date.now()}`;
  await textbox(page, "Username").fill(wanted);
  await save(page).click();
  await expectUpdated(page);
  await expect(textbox(page, "Username")).toHaveValue(wanted.toLowerCase());
  await expect(save(page)).toBeDisabled();

  // Another student cannot take it.
  await page.context().clearCookies();
  await student(page, "username-2");
  await openForm(page, "/settings/account/screen_name");
  await textbox(page, "Username").fill(wanted.toUpperCase());
  await save(page).click();
  await expect(page.getByText("That username has been taken.", { exact: true })).toBeVisible();
});

test("password: a wrong current password is refused, the new one works at the next log in", async ({
  page,
}) => {
  const account = await student(page, "password");
  await openForm(page, "/settings/account/password");
  await expect(page.getByRole("link", { name: "Forgot your password?" })).toHaveAttribute(
    "href",
    "/forgotpassword",
  );
  const fill = async (current: string, next: string, again: string) => {
    await page.getByLabel("Current password", { exact: true }).fill(current);
    await page.getByLabel("New password", { exact: true }).fill(next);
    await page.getByLabel("Re-enter new password", { exact: true }).fill(again);
  };

  await fill(account.password, "new-pass-1", "new-pass-2");
  await save(page).click();
  await expect(page.getByText("Passwords do not match", { exact: true })).toBeVisible();

  await fill("not-my-password", "new-pass-1", "new-pass-1");
  await save(page).click();
  await expect(page.getByText("Invalid password.", { exact: true })).toBeVisible();

  await fill(account.password, "new-pass-1", "new-pass-1");
  await save(page).click();
  await expectUpdated(page);
  // The form empties after the change.
  await expect(page.getByLabel("Current password", { exact: true })).toHaveValue("");

  // This browser stays signed in; the new password is the one that works.
  await open(page, "/settings/account");
  await expect(page.getByRole("heading", { name: "Account Settings" })).toBeVisible();
  await page.context().clearCookies();
  await logIn(page, account.email, "new-pass-1");
  await expect(page).not.toHaveURL(/\/login/);
});

test("e-mail: a PIN to the new address changes the sign-in e-mail", async ({ page }) => {
  const account = await student(page, "email");
  await openForm(page, "/settings/account/email");
  await expect(textbox(page, "Email")).toHaveValue(account.email.toLowerCase());
  await expect(save(page)).toBeDisabled();

  await textbox(page, "Email").fill(account.email.toUpperCase());
  await save(page).click();
  await expect(page.getByText("Enter a new email", { exact: true })).toBeVisible();

  const newEmail = uniqueEmail("email-new");
  await textbox(page, "Email").fill(newEmail);
  await save(page).click();
  await expect(page).toHaveURL(/\/settings\/account\/verify_email\?email=/);
  await expect(page.getByText("Email sent", { exact: true })).toBeVisible();

  const pin = await waitForCode(newEmail);
  await textbox(page, "PIN").fill(pin === "1234" ? "4321" : "1234");
  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(page.getByText("Your code was incorrect. Please try again.", { exact: true })).toBeVisible();

  await textbox(page, "PIN").fill(pin);
  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(page).toHaveURL(/\/settings\/account\/email$/);
  await expectUpdated(page);
  await expect(textbox(page, "Email")).toHaveValue(newEmail.toLowerCase());

  await page.context().clearCookies();
  await logIn(page, newEmail, account.password);
  await expect(page).not.toHaveURL(/\/login/);
});

test("e-mail: an address another account uses is taken", async ({ page }) => {
  const other = await student(page, "email-owner");
  await page.context().clearCookies();
  await student(page, "email-taker");
  await openForm(page, "/settings/account/email");
  await textbox(page, "Email").fill(other.email);
  await save(page).click();
  await expect(page.getByText("That email is taken.", { exact: true })).toBeVisible();
});

test("phone: an invalid number is refused; a saved one goes on to /checkout with the flag", async ({
  page,
}) => {
  await student(page, "phone");
  await openForm(page, "/settings/account/phone");
  await textbox(page, "Phone").fill("555-013");
  await save(page).click();
  await expect(page.getByText("Invalid phone #", { exact: true })).toBeVisible();

  await textbox(page, "Phone").fill("+1 (405) 555-0134");
  await save(page).click();
  await expectUpdated(page);
  await expect(page).toHaveURL(/\/settings\/account\/phone$/);
  await open(page, "/settings/account");
  await expect(row(page, "Phone")).toContainText("+1 (405) 555-0134");

  // spec 1 §2: after a phone change with the checkout flag set, the user goes to /checkout.
  await openForm(page, "/settings/account/phone?next=checkout");
  await textbox(page, "Phone").fill("405.555.0199");
  await save(page).click();
  await expect(page).toHaveURL(/\/checkout$/);
});

test("gender: saved from the radio group, stated as not shown publicly", async ({ page }) => {
  await student(page, "gender");
  await openForm(page, "/settings/account/gender");
  await expect(page.getByText("Your gender is not shown publicly.", { exact: true })).toBeVisible();
  await expect(save(page)).toBeDisabled();
  await page.getByRole("radio", { name: "Other" }).check();
  await save(page).click();
  await expectUpdated(page);
  await open(page, "/settings/account");
  await expect(row(page, "Gender")).toContainText("Other");
});

test("gender: sent without a choice, the server says 'Must select a gender'", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await student(page, "gender-empty");
  const cookies = await context.cookies();
  await context.close();

  // Without JavaScript the save button cannot be disabled; the server checks the same rule.
  const plain = await browser.newContext({ javaScriptEnabled: false });
  await plain.addCookies(cookies);
  const noScript = await plain.newPage();
  await noScript.goto("/settings/account/gender");
  await noScript.getByRole("button", { name: "Save", exact: true }).click();
  await expect(noScript.getByText("Must select a gender", { exact: true })).toBeVisible();
  await plain.close();
});

test("birth date: all fields needed, no February 30, then 'month day, year'", async ({ page }) => {
  await student(page, "birth");
  await openForm(page, "/settings/account/birth_date");
  // spec 1 §9: years 2021 down to 1970.
  const years = await page.getByLabel("Year", { exact: true }).locator("option").allTextContents();
  expect(years.slice(1, 2)).toEqual(["2021"]);
  expect(years.at(-1)).toBe("1970");

  await page.getByLabel("Month", { exact: true }).selectOption({ label: "February" });
  await save(page).click();
  await expect(page.getByText("Please fill in all the fields", { exact: true })).toBeVisible();

  await page.getByLabel("Day", { exact: true }).selectOption("30");
  await page.getByLabel("Year", { exact: true }).selectOption("2001");
  await save(page).click();
  await expect(
    page.getByText("That date doesn't exist. Check the month and day.", { exact: true }),
  ).toBeVisible();

  await page.getByLabel("Month", { exact: true }).selectOption({ label: "March" });
  await page.getByLabel("Day", { exact: true }).selectOption("4");
  await save(page).click();
  await expectUpdated(page);
  await open(page, "/settings/account");
  await expect(row(page, "Birth date")).toContainText("March 4, 2001");
});

test("payments: available funds, an empty activity list, customer support", async ({ page }) => {
  await student(page, "payments");
  await open(page, "/settings/payments");
  await expect(page.getByRole("heading", { name: "Available Funds" })).toBeVisible();
  await expect(page.getByText("$0.00", { exact: true })).toBeVisible();
  await expect(page.getByText("Funds will get added when you boost a post.", { exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Payment Activity" })).toBeVisible();
  await expect(page.getByText("No payment activity yet.", { exact: true })).toBeVisible();
  await page.getByRole("article").getByRole("link", { name: "Customer Support" }).click();
  await expect(page).toHaveURL(/\/settings\/help$/);
});

test("on a phone, an account page's back button returns to the overview", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await student(page, "back");
  await openForm(page, "/settings/account/phone");
  await page.getByRole("article").getByRole("link", { name: "Back", exact: true }).click();
  await expect(page).toHaveURL(/\/settings\/account$/);
});

test("signed out, the account pages send the visitor away", async ({ page }) => {
  for (const path of ["/settings/account", "/settings/account/phone", "/settings/payments"]) {
    await page.goto(path);
    await expect(page).not.toHaveURL(new RegExp(`${path}$`));
  }
});
