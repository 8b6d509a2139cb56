import { mkdir } from "node:fs/promises";
import { expect, type Locator, type Page } from "@playwright/test";
import { hydrated, toast } from "./page";

// The steps of the trade (docs/product/the-trade.md, meetups.md, reviews-and-reputation.md) as a
// student takes them in the browser, shared by the trade's specs (trade-journey.spec.ts end to
// end, trade-offers/-meetups/-reviews.spec.ts for the details).

/**
 * Screenshots `target` (an element, or the whole page) at 390 and 1280 px into `dir` as
 * `name-390.png` and `name-1280.png`, then puts the page back to 1280 px.
 */
export async function shoot(page: Page, target: Page | Locator, dir: string, name: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    if (target === page) await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
    else await (target as Locator).screenshot({ path: `${dir}/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/**
 * A listing posted through the composer (priced, and 'Open to offers' unless `offers: false`),
 * opened on its own page; its address. `page` is signed in on the campus it posts to.
 */
export async function postListing(
  page: Page,
  listing: { title: string; price: string; offers?: boolean },
): Promise<string> {
  await page.goto("/home");
  await hydrated(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Create Post" }).click();
  const composer = page.getByRole("dialog", { name: "Create Post" });
  await expect(composer.getByRole("textbox", { name: "Post text" })).toBeFocused();
  await page.keyboard.type(listing.title);
  const details = composer.getByRole("group", { name: "Listing details (optional)" });
  await details.getByRole("textbox", { name: "Price" }).fill(listing.price);
  if (listing.offers !== false) await details.getByText("Open to offers", { exact: true }).click();
  await composer.getByRole("button", { name: "Post", exact: true }).click();
  await expect(toast(page, "Posted! Your post was sent.")).toBeVisible();
  await page
    .locator("article")
    .filter({ hasText: listing.title })
    .getByRole("link", { name: /^Comment/ })
    .click();
  await expect(page).toHaveURL(/\/post\/[0-9a-f-]{36}$/);
  return page.url();
}

/**
 * 'Make offer' on the listing at `postUrl` (its dialog prefilled with `price`); lands on the
 * conversation with the new card Pending and 'You offered'; the card. `beforeSend` sees the
 * dialog filled in (for a screenshot).
 */
export async function makeOffer(
  page: Page,
  postUrl: string,
  offer: { dollars: string; price: string; beforeSend?: (dialog: Locator) => Promise<void> },
): Promise<Locator> {
  await page.goto(postUrl);
  await hydrated(page);
  await page.getByRole("button", { name: "Make offer" }).click();
  const dialog = page.getByRole("dialog", { name: "Make offer" });
  const amount = dialog.getByRole("textbox", { name: "Your offer ($)" });
  await expect(amount).toHaveValue(offer.price);
  await amount.fill(offer.dollars);
  await offer.beforeSend?.(dialog);
  await dialog.getByRole("button", { name: "Send offer" }).click();
  await expect(page).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
  await hydrated(page);
  const card = page.getByTestId("offer-card").last();
  await expect(card).toHaveAttribute("data-state", "pending");
  await expect(card).toContainText(`$${offer.dollars}`);
  await expect(card.getByText("You offered")).toBeVisible();
  return card;
}

/** Counter on `card` (the seller's or buyer's turn) with a new amount. */
export async function counterOffer(page: Page, card: Locator, dollars: string): Promise<void> {
  await card.getByRole("button", { name: "Counter" }).click();
  const dialog = page.getByRole("dialog", { name: "Counter" });
  await dialog.getByRole("textbox", { name: "Your offer ($)" }).fill(dollars);
  await dialog.getByRole("button", { name: "Send counteroffer" }).click();
  await expect(dialog).toBeHidden();
}

/** A meetup spot, as a site admin adds it on the console's campus page (decision 0610). */
export interface SpotFields {
  name: string;
  kind: "police" | "library" | "union" | "other";
  address: string;
  hours?: string;
  rules?: string;
}

/** Adds a spot through the console's 'Meetup spots' section; `admin` is a site admin's page. */
export async function addMeetupSpot(admin: Page, campus: string, spot: SpotFields): Promise<Locator> {
  await admin.goto(`/admin/campuses/${campus}`);
  await hydrated(admin);
  const section = admin.getByRole("region", { name: "Meetup spots" });
  await section.getByLabel("Name", { exact: true }).last().fill(spot.name);
  await section.getByLabel("Kind", { exact: true }).last().selectOption(spot.kind);
  await section.getByLabel("Address", { exact: true }).last().fill(spot.address);
  if (spot.hours) await section.getByLabel("Hours (optional)").last().fill(spot.hours);
  if (spot.rules) await section.getByLabel("Rules (optional)").last().fill(spot.rules);
  await section.getByRole("button", { name: "Add spot" }).click();
  await expect(toast(admin, "Meetup spot added.")).toBeVisible();
  await expect(section.getByText(spot.name, { exact: true }).first()).toBeVisible();
  return section;
}

/**
 * The day after `now` at 3 PM on the campus's clock (`timeZone`, decision 0614), as
 * `<input type="datetime-local">` takes it. `now`: the app's time (a test clock may be ahead).
 */
export function tomorrowAtThree(timeZone: string, now: Date = new Date()): string {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(new Date(now.getTime() + 24 * 60 * 60 * 1000));
  return `${parts}T15:00`;
}

/**
 * 'Propose meetup' in the open conversation at `spotName` and `when` (datetime-local); the toast
 * and the new card. `beforeSend` sees the dialog filled in (a screenshot, an accessibility check).
 */
export async function proposeMeetup(
  page: Page,
  proposal: { spotName: string; when: string; beforeSend?: (dialog: Locator) => Promise<void> },
): Promise<Locator> {
  await page.getByRole("button", { name: /Propose meetup/ }).click();
  const dialog = page.getByRole("dialog", { name: "Propose meetup" });
  await dialog.getByRole("radio", { name: new RegExp(proposal.spotName) }).check();
  await dialog.getByLabel("Date and time").fill(proposal.when);
  await proposal.beforeSend?.(dialog);
  await dialog.getByRole("button", { name: "Send proposal" }).click();
  await expect(toast(page, "Meetup proposed.")).toBeVisible();
  await expect(dialog).toBeHidden();
  const card = page.getByTestId("meetup-card").last();
  await expect(card).toContainText("You proposed a meetup");
  await expect(card).toContainText(proposal.spotName);
  return card;
}

/** Writes a review on the deal's review page (`reviewUrl`, /deals/:id/review) and sends it. */
export async function writeReview(
  page: Page,
  reviewUrl: string,
  input: { stars: number; tags: string[]; text: string; note?: string },
): Promise<void> {
  await page.goto(reviewUrl);
  await page.getByText(`${input.stars} ★`, { exact: true }).click();
  for (const tag of input.tags) await page.getByText(tag, { exact: true }).click();
  await page.getByLabel("Your review (public)").fill(input.text);
  if (input.note) await page.getByLabel(/Private note to/).fill(input.note);
  await page.getByRole("button", { name: "Send review" }).click();
  await expect(page.getByText(/You reviewed this trade/)).toBeVisible();
}
