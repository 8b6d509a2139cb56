import { type Browser, expect as baseExpect, type Locator, type Page, test } from "@playwright/test";
import type { TestStudent } from "../../server/dev/test-student";
import { type ClockApp, startClockApp } from "./support/clock-app";
import { TRADE_JOURNEY_PORT } from "./support/env";
import { hydrated, toast } from "./support/page";
import {
  counterOffer,
  makeOffer,
  postListing,
  proposeMeetup,
  shoot,
  tomorrowAtThree,
  writeReview,
} from "./support/trade";

// Decision 0607: the trade from end to end, in three browsers (a seller and two buyers) on one
// app of the spec's own on the test clock (decision 0481), serving OU (Norman, Central Time):
// two buyers offer on one listing, the seller counters one, that buyer accepts; the listing reads
// Reserved for the other, whose card reads 'No longer available' without a reload; a meetup is
// proposed and accepted; the seller marks it sold; both review, published only by the second; the
// seller's profile shows the trade and, after three earlier trades the fixture POST /dev/test-deal
// gives them, the star average. On the way the cards reach every state, Expired by moving the
// clock. TRADE_SCREENSHOTS_DIR keeps each card's state, the deal's header and the Reviews tab at
// 390 and 1280 px.

const SHOTS = process.env.TRADE_SCREENSHOTS_DIR;
const ZONE = "America/Chicago";
const HOUR_S = 3600;
test.use({ actionTimeout: 20_000 });
const expect = baseExpect.configure({ timeout: 20_000 });
// A whole trade in three browsers takes minutes on a loaded machine; each wait stays 20 s.
test.describe.configure({ mode: "serial", timeout: 240_000 });

let clock: ClockApp;
const spotName = `Norman police lobby ${Date.now()}`;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  clock = await startClockApp("trade-journey", {}, TRADE_JOURNEY_PORT);
  await addSpot(spotName);
});

test.afterAll(async () => {
  await clock?.stop();
});

async function snap(page: Page, target: Page | Locator, name: string): Promise<void> {
  if (SHOTS) await shoot(page, target, SHOTS, name);
}

async function person(browser: Browser, label: string, fullName: string, siteAdmin = false) {
  const context = await browser.newContext({
    baseURL: clock.origin,
    viewport: { width: 1280, height: 900 },
  });
  const student = await clock.createStudent(context, { label, fullName, siteAdmin });
  return { page: await context.newPage(), student };
}

const cookieOf = (student: TestStudent) => `${student.cookie.name}=${student.cookie.value}`;

/** The campus's meetup spot, added through the console's own action by a site admin (decision 0610). */
async function addSpot(name: string): Promise<void> {
  const admin = await fetch(`${clock.origin}/dev/test-student`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ label: "journey-admin", siteAdmin: true }),
  });
  expect(admin.status).toBe(201);
  const response = await fetch(`${clock.origin}/admin/campuses/ou/spots`, {
    method: "POST",
    headers: { cookie: cookieOf((await admin.json()) as TestStudent) },
    body: new URLSearchParams({
      intent: "add-spot",
      name,
      kind: "police",
      address: "201 W Gray St, Norman, OK 73069",
      hours: "Open 24 hours",
      rules: "Meet in the lobby, in view of the camera.",
    }),
  });
  expect(response.status).toBe(200);
}

/** One earlier, finished and reviewed sale of the signed-in seller (decision 0607's fixture). */
async function earlierSale(seller: TestStudent, stars: number): Promise<void> {
  const response = await fetch(`${clock.origin}/dev/test-deal`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: cookieOf(seller) },
    body: JSON.stringify({ stars, text: `An earlier ${stars}-star trade` }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
}

test("two buyers offer, one deal: reserved, met, sold, reviewed; the seller's record shows it", async ({
  browser,
}) => {
  const { page: seller, student: sally } = await person(browser, "journey-seller", "Sally Seller");
  const { page: ana } = await person(browser, "journey-ana", "Ana Buyer");
  const { page: ben } = await person(browser, "journey-ben", "Ben Buyer");
  const title = `Standing desk ${Date.now()}`;
  const postUrl = await postListing(seller, { title, price: "50" });

  // Ben's first offer runs out: a day later his card reads Expired and can't be answered.
  const expiring = await makeOffer(ben, postUrl, { dollars: "30", price: "50" });
  await expect(expiring).toContainText(/2[34] h left/);
  await snap(ben, expiring, "offer-pending");
  await clock.advance(24 * HOUR_S + 60);
  await ben.reload();
  await hydrated(ben);
  await expect(expiring).toHaveAttribute("data-state", "expired");
  await expect(expiring).toContainText("Expired");
  await expect(expiring.getByRole("button")).toHaveCount(0);
  await snap(ben, expiring, "offer-expired");

  // He offers again, thinks better of it and withdraws, then offers less.
  const withdrawn = await makeOffer(ben, postUrl, { dollars: "45", price: "50" });
  await withdrawn.getByRole("button", { name: "Withdraw" }).click();
  await expect(withdrawn).toHaveAttribute("data-state", "withdrawn");
  await snap(ben, withdrawn, "offer-withdrawn");
  const benCard = await makeOffer(ben, postUrl, { dollars: "38", price: "50" });
  const benChat = ben.url();

  // Ana's first offer is too low: the seller declines it, and her open card says so live.
  const lowball = await makeOffer(ana, postUrl, { dollars: "30", price: "50" });
  await seller.goto(ana.url());
  await hydrated(seller);
  await seller.getByTestId("offer-card").last().getByRole("button", { name: "Decline" }).click();
  await expect(lowball).toHaveAttribute("data-state", "declined");
  await expect(lowball).toContainText("Declined");
  await snap(ana, lowball, "offer-declined");
  await makeOffer(ana, postUrl, { dollars: "40", price: "50" });

  // The seller's listing page: both open offers, best first; the seller counters Ana's.
  await seller.goto(postUrl);
  await hydrated(seller);
  const offers = seller.getByRole("region", { name: "Offers (2)" });
  await expect(offers.getByRole("listitem")).toHaveCount(2);
  await expect(offers.getByRole("listitem").first()).toContainText("Ana");
  await offers.getByRole("link", { name: "$40" }).click();
  await expect(seller).toHaveURL(ana.url());
  await hydrated(seller);
  const anaOffer = seller.getByTestId("offer-card").last();
  await expect(anaOffer).toContainText("$40");
  await counterOffer(seller, anaOffer, "45");
  const countered = seller.getByTestId("offer-card").nth(1);
  await expect(countered).toHaveAttribute("data-state", "countered");
  await expect(countered).toContainText("Countered");
  await snap(seller, countered, "offer-countered");

  // Ana sees the counter without reloading and accepts it: the listing is reserved for her.
  const anaCounter = ana.getByTestId("offer-card").last();
  await expect(anaCounter).toContainText("$45");
  await expect(anaCounter).toHaveAttribute("data-state", "pending");
  await anaCounter.getByRole("button", { name: "Accept" }).click();
  await expect(toast(ana, "Offer accepted. The listing is reserved for you both.")).toBeVisible();
  await expect(anaCounter).toHaveAttribute("data-state", "accepted");
  await expect(ana.getByTestId("listing-state")).toHaveText("Reserved");
  await snap(ana, anaCounter, "offer-accepted");

  // Ben's open conversation: his card closes live, with the system line; the listing is Reserved.
  expect(ben.url()).toBe(benChat);
  await expect(benCard).toHaveAttribute("data-state", "closed");
  await expect(benCard).toContainText("No longer available");
  await expect(benCard.getByRole("button")).toHaveCount(0);
  await expect(
    ben
      .getByRole("list", { name: "Messages" })
      .getByRole("note")
      .filter({ hasText: "reserved for someone else" }),
  ).toBeVisible();
  await expect(ben.getByTestId("listing-state")).toHaveText("Reserved");
  await snap(ben, benCard, "offer-closed");
  await ben.goto(postUrl);
  await hydrated(ben);
  await expect(ben.getByText("Reserved").first()).toBeVisible();
  await expect(ben.getByRole("button", { name: "Make offer" })).toHaveCount(0);

  // Ana proposes a meetup at the campus's spot; the seller accepts it; both see it on top, live.
  const when = tomorrowAtThree(ZONE, await clock.now());
  const proposal = await proposeMeetup(ana, { spotName, when });
  await expect(proposal).toContainText(/3:00 PM C[SD]T/);
  const sellerMeetup = seller.getByTestId("meetup-card").last();
  await expect(sellerMeetup).toContainText(spotName);
  await sellerMeetup.getByRole("button", { name: "Accept" }).click();
  await expect(toast(seller, "Meetup accepted.")).toBeVisible();
  for (const page of [seller, ana]) {
    await expect(page.getByRole("region", { name: "Accepted meetup" })).toContainText(spotName);
  }
  await expect(proposal).toContainText("Accepted");

  // The deal's header on both sides, then the seller marks it sold.
  const header = seller.getByTestId("trade-header");
  await expect(header.getByTestId("listing-state")).toHaveText("Reserved");
  await expect(header).toContainText("for $45");
  await snap(seller, header, "deal-header-seller");
  await snap(ana, ana.getByTestId("trade-header"), "deal-header-buyer");
  await header.getByRole("button", { name: "Mark sold" }).click();
  await expect(toast(seller, "Marked as sold.")).toBeVisible();
  await expect(header.getByTestId("listing-state")).toHaveText("Sold");
  await expect(ana.getByTestId("listing-state")).toHaveText("Sold");
  await snap(seller, header, "deal-header-sold");

  // Both review, from the header's link. Ana first: the seller sees only that she was reviewed.
  await ana.getByTestId("trade-header").getByRole("link", { name: "Review" }).click();
  await expect(ana).toHaveURL(/\/deals\/[0-9a-f-]{36}\/review$/);
  const reviewUrl = ana.url();
  await writeReview(ana, reviewUrl, {
    stars: 5,
    tags: ["Item as described", "On time"],
    text: "Desk exactly as pictured, met right on time.",
    note: "A photo of the desk's underside would help.",
  });
  await header.getByRole("link", { name: "Review" }).click();
  await expect(seller).toHaveURL(reviewUrl);
  await expect(seller.getByText("You've been reviewed — write yours to see it")).toBeVisible();
  await expect(seller.getByText("Desk exactly as pictured")).toHaveCount(0);
  await ben.goto(`/${sally.username}?show=reviews`);
  await expect(ben.getByText("No reviews yet")).toBeVisible();

  // The seller's review publishes both.
  await writeReview(seller, reviewUrl, { stars: 5, tags: ["Paid as agreed"], text: "Paid as agreed." });
  await expect(seller.getByText("Desk exactly as pictured, met right on time.")).toBeVisible();
  await expect(seller.getByText("A photo of the desk's underside would help.")).toBeVisible();
  await ana.reload();
  await expect(ana.getByText("Paid as agreed.", { exact: true })).toBeVisible();

  // Her profile, as Ben reads it (a stranger sees the reviewer's last initial): the trade, the
  // review, no private note; too few for stars.
  await ben.goto(`/${sally.username}?show=reviews`);
  const line = ben.getByTestId("reputation-line");
  await expect(ben.getByRole("article", { name: "Review by Ana B." })).toContainText(
    "Desk exactly as pictured",
  );
  await expect(line).toContainText("New seller");
  await expect(line).toContainText("1 trade completed");
  expect(await ben.content()).not.toContain("underside");

  // Three earlier trades: 'New seller' below three counted reviews, the average from three up.
  await earlierSale(sally, 5);
  await ben.reload();
  await expect(line).toContainText("New seller");
  await expect(line).toContainText("2 trades completed");
  await earlierSale(sally, 4);
  await ben.reload();
  await expect(line).toContainText("★ 4.7 · 3 reviews");
  await earlierSale(sally, 5);
  await ben.reload();
  await expect(line).toContainText("★ 4.8 · 4 reviews");
  await expect(line).toContainText("4 trades completed");
  await expect(ben.getByRole("article", { name: /^Review by / })).toHaveCount(4);
  await snap(ben, ben, "profile-reviews");
  await seller.goto("/profile?show=reviews");
  await expect(seller.getByText("Things to improve").first()).toBeVisible();
  await snap(seller, seller, "profile-reviews-own");
});
