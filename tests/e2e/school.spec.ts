import { expect as baseExpect, type Page, test } from "@playwright/test";
import { hostUrl } from "./support/env";
import { uniqueEmail, waitForCode } from "./support/mailbox";
import {
  commitsWhileIdle,
  countReactCommits,
  disabledMoments,
  hydrated,
  loadWithScriptsHeld,
  watchDisabled,
} from "./support/page";
import { signUp } from "./support/student";

// Decision 0041, spec 1 §2 (school_email, verify_school_email), §4 'School verification', §5.

// Each test signs up through the screens (scrypt, mail rendering) on 2 shared cores: slow steps get room.
test.use({ actionTimeout: 20_000 });
test.describe.configure({ timeout: 120_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

const schoolEmailInput = (page: Page) => page.getByRole("textbox", { name: "School email" });
const sendPinButton = (page: Page) => page.getByRole("button", { name: "Send PIN", exact: true });
const pinInput = (page: Page) => page.getByRole("textbox", { name: "PIN" });

/** Opens the school e-mail form (a full page load) and waits until its script runs. */
async function openSchoolEmail(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await hydrated(page);
}

/** Decision 0680: the school step asks the class year too (next year, one of this year to + 7). */
const CLASS_OF = String(new Date().getUTCFullYear() + 1);
const gradYearSelect = (page: Page) => page.getByRole("combobox", { name: "Graduation year" });

async function sendPin(page: Page, address: string): Promise<void> {
  await schoolEmailInput(page).fill(address);
  await gradYearSelect(page).selectOption(CLASS_OF);
  await sendPinButton(page).click();
}

async function enterPin(page: Page, pin: string): Promise<void> {
  await pinInput(page).fill(pin);
  await page.getByRole("button", { name: "Verify", exact: true }).click();
}

test("a student joins their campus with a school e-mail PIN", async ({ page }) => {
  await signUp(page, "school");

  // spec 1 §4: once the e-mail is verified, the school page comes next (once).
  await expect(page).toHaveURL(/\/settings\/account\/school_email$/);
  await expect(page.getByRole("heading", { name: "Join your campus" })).toBeVisible();
  await page.goto("/home");
  await expect(page).toHaveURL(/\/home$/);
  await openSchoolEmail(page, "/settings/account/school_email");
  // spec 1 §4: Send PIN is disabled while the field is empty.
  await expect(sendPinButton(page)).toBeDisabled();

  // spec 1 §5: an address outside the campus's domains.
  await sendPin(page, "jamie@gmail.com");
  await expect(page.getByText("Enter a valid school email", { exact: true })).toBeVisible();

  const school = uniqueEmail("school", "ou.edu");
  await sendPin(page, school);
  await expect(page).toHaveURL(
    /\/settings\/account\/verify_school_email\?email=.+&campus=ou&gradYear=\d{4}$/,
  );
  await expect(page.getByText("Email sent", { exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Enter PIN" })).toBeVisible();

  const pin = await waitForCode(school);
  await enterPin(page, pin === "1234" ? "4321" : "1234");
  await expect(page.getByText("Your code was incorrect. Please try again.", { exact: true })).toBeVisible();

  await enterPin(page, pin);
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByText("Welcome to OU Buy / Sell!", { exact: true })).toBeVisible();
  // The 'Verify your account' banner is gone (spec 1 §2 'Banners').
  await expect(page.getByText("Verify your account", { exact: true })).toHaveCount(0);

  await page.goto("/settings/account");
  const rows = page.getByRole("article").getByRole("listitem");
  const rowOf = (label: string) => rows.filter({ has: page.getByText(label, { exact: true }) });
  await expect(rowOf("School Email")).toContainText(school);
  await expect(rowOf("Verified")).toContainText("Yes");

  // spec 1 §4, spec 2 §2: the join is announced in the feed as '… has joined the community'.
  const username = (await rowOf("Username").getByRole("link").textContent())?.replace(/^Username/, "").trim();
  expect(username).toMatch(/^jamier/);
  await page.goto("/home");
  await expect(
    page
      .locator("p", { hasText: "has joined the community" })
      .filter({ has: page.locator(`a[href="/${username}"]`) }),
  ).toBeVisible();

  // spec 1 §2: with a school e-mail the page offers to change it.
  await openSchoolEmail(page, "/settings/account/school_email");
  await expect(page.getByRole("heading", { name: "Change school email" })).toBeVisible();
  await expect(schoolEmailInput(page)).toHaveValue(school);
  await expect(sendPinButton(page)).toBeDisabled();
});

test("one school e-mail belongs to one account", async ({ browser }) => {
  const first = await browser.newContext();
  const firstPage = await first.newPage();
  await signUp(firstPage, "school-first", "ut");
  await expect(firstPage).toHaveURL(/\/settings\/account\/school_email$/);
  const school = uniqueEmail("school", "utexas.edu");
  await sendPin(firstPage, school);
  await expect(firstPage).toHaveURL(/\/settings\/account\/verify_school_email\?/);
  await enterPin(firstPage, await waitForCode(school));
  await expect(firstPage).toHaveURL(/\/home$/);
  await first.close();

  const second = await browser.newContext();
  const secondPage = await second.newPage();
  await signUp(secondPage, "school-second", "ut");
  await expect(secondPage).toHaveURL(/\/settings\/account\/school_email$/);
  await sendPin(secondPage, school.toUpperCase());
  await expect(
    secondPage.getByText("That school email is already used by another account.", { exact: true }),
  ).toBeVisible();
  await expect(secondPage).toHaveURL(/\/settings\/account\/school_email$/);
  await second.close();
});

test("on the generic instance the campus comes from the query, and the student goes on to Find Your School", async ({
  page,
}) => {
  await signUp(page, "school-generic", "www");
  // spec 1 §4: no school redirect on the generic campus.
  await expect(page).toHaveURL(/\/home$/);

  // spec 1 §5: no campus chosen.
  await page.goto(hostUrl("www", "/settings/account/school_email"));
  await expect(page.getByText("Something went wrong", { exact: true })).toBeVisible();

  await openSchoolEmail(page, hostUrl("www", "/settings/account/school_email?campus=ut"));
  await expect(page.getByRole("heading", { name: "Join your campus" })).toBeVisible();
  // A subdomain of a UT domain counts (docs/contract.md).
  const school = uniqueEmail("school", "mail.utexas.edu");
  await sendPin(page, school);
  await expect(page).toHaveURL(
    /\/settings\/account\/verify_school_email\?email=.+&campus=ut&gradYear=\d{4}$/,
  );
  await enterPin(page, await waitForCode(school));
  await expect(page).toHaveURL(/\/search_schools$/);
  await expect(page.getByText("Welcome to UT Buy / Sell!", { exact: true })).toBeVisible();

  await page.goto(hostUrl("www", "/settings/account"));
  await expect(
    page
      .getByRole("article")
      .getByRole("listitem")
      .filter({ has: page.getByText("Verified", { exact: true }) }),
  ).toContainText("Yes");
});

test("a school e-mail typed before the page's script runs: 'Send PIN' stays usable, the page settles, the PIN page follows", async ({
  page,
}) => {
  await signUp(page, "school-early");
  await expect(page).toHaveURL(/\/settings\/account\/school_email$/);
  const school = uniqueEmail("school-early", "ou.edu");

  // The student types before the page's script arrives. Once it runs, 'Send PIN' must never turn
  // disabled over the filled form (the click would be lost), and the page must settle: a form that
  // keeps re-rendering holds up the navigation 'Send PIN' starts ('Enter PIN' did not come in CI).
  await watchDisabled(page, "Send PIN");
  await countReactCommits(page);

  await loadWithScriptsHeld(page, "/settings/account/school_email", async () => {
    await schoolEmailInput(page).fill(school);
    await gradYearSelect(page).selectOption(CLASS_OF);
  });

  expect(await disabledMoments(page)).toEqual([]);
  await expect(schoolEmailInput(page)).toHaveValue(school);
  await expect(gradYearSelect(page)).toHaveValue(CLASS_OF);
  expect(await commitsWhileIdle(page)).toBeLessThan(5);
  await sendPinButton(page).click();
  await expect(page.getByRole("heading", { name: "Enter PIN" })).toBeVisible();
  await expect(page).toHaveURL(
    /\/settings\/account\/verify_school_email\?email=.+&campus=ou&gradYear=\d{4}$/,
  );
});
