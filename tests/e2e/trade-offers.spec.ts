import { type Browser, expect, type Page, test } from "@playwright/test";
import { hostUrl } from "./support/env";
import { hydrated, toast } from "./support/page";
import { createStudent } from "./support/student";
import { counterOffer, makeOffer, postListing, shoot } from "./support/trade";

// Decisions 0601–0604: two buyers offer on one listing, the seller counters one, that buyer
// accepts; the listing reads Reserved for the other, whose card reads 'No longer available' live;
// the seller marks it sold. Three browser contexts, on UCF's campus. Screenshots of the offer card
// in each state and of the deal header at 390 and 1280 px go to test-results/trade/.

const CAMPUS = "ucf";
test.use({ baseURL: hostUrl(CAMPUS) });
const SHOTS = "test-results/trade";

async function person(browser: Browser, label: string, fullName: string) {
  const context = await browser.newContext({ baseURL: hostUrl(CAMPUS) });
  const page = await context.newPage();
  await createStudent(context, { campus: CAMPUS, label, fullName });
  return page;
}

const lastCard = (page: Page) => page.getByTestId("offer-card").last();

test("two offers, a counter, an accept: the listing is reserved, the other offer closes live, then sold", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await createStudent(page.context(), { campus: CAMPUS, label: "trade-seller", fullName: "Sally Seller" });
  const title = `Desk chair ${Date.now()}`;
  const postUrl = await postListing(page, { title, price: "50" });

  const ana = await person(browser, "trade-ana", "Ana Buyer");
  const ben = await person(browser, "trade-ben", "Ben Buyer");
  await makeOffer(ana, postUrl, {
    dollars: "40",
    price: "50",
    beforeSend: (dialog) => shoot(ana, dialog, SHOTS, "make-offer-dialog"),
  });
  const benCard = await makeOffer(ben, postUrl, { dollars: "38", price: "50" });
  await shoot(ben, lastCard(ben), SHOTS, "offer-pending");

  // The seller sees both offers on the listing's page, best first, and counters Ana's.
  await page.goto(postUrl);
  await hydrated(page);
  const offers = page.getByRole("region", { name: "Offers (2)" });
  await expect(offers.getByRole("listitem")).toHaveCount(2);
  await expect(offers.getByRole("listitem").first()).toContainText("Ana");
  await shoot(page, offers, SHOTS, "listing-offers");
  await offers.getByRole("link", { name: "$40" }).click();
  await expect(page).toHaveURL(/\/messages\//);
  await hydrated(page);
  await expect(page.getByTestId("trade-header")).toContainText(title);
  const anaOffer = page.getByTestId("offer-card").last();
  await expect(anaOffer.getByRole("button", { name: "Accept" })).toBeVisible();
  await counterOffer(page, anaOffer, "45");
  await expect(page.getByTestId("offer-card").first()).toHaveAttribute("data-state", "countered");
  await shoot(page, page.getByTestId("offer-card").first(), SHOTS, "offer-countered");

  // Ana's open conversation shows the counter live; she accepts it.
  const anaCounter = ana.getByTestId("offer-card").last();
  await expect(anaCounter).toContainText("$45");
  await expect(anaCounter).toHaveAttribute("data-state", "pending");
  await anaCounter.getByRole("button", { name: "Accept" }).click();
  await expect(toast(ana, "Offer accepted. The listing is reserved for you both.")).toBeVisible();
  await expect(ana.getByTestId("offer-card").last()).toHaveAttribute("data-state", "accepted");
  await expect(ana.getByTestId("listing-state")).toHaveText("Reserved");
  await shoot(ana, lastCard(ana), SHOTS, "offer-accepted");
  await shoot(ana, ana.getByTestId("trade-header"), SHOTS, "deal-header-buyer");

  // Ben's card closes live, and the listing reads Reserved for him.
  await expect(benCard).toHaveAttribute("data-state", "closed");
  await expect(benCard).toContainText("No longer available");
  await expect(
    ben
      .getByRole("list", { name: "Messages" })
      .getByRole("note")
      .filter({ hasText: "reserved for someone else" }),
  ).toBeVisible();
  await shoot(ben, lastCard(ben), SHOTS, "offer-closed");
  await ben.goto(postUrl);
  await expect(ben.getByText("Reserved").first()).toBeVisible();
  await expect(ben.getByRole("button", { name: "Make offer" })).toHaveCount(0);

  // The seller marks the deal sold from the conversation's header.
  const header = page.getByTestId("trade-header");
  await expect(header.getByTestId("listing-state")).toHaveText("Reserved");
  await shoot(page, header, SHOTS, "deal-header-seller");
  await header.getByRole("button", { name: "Mark sold" }).click();
  await expect(toast(page, "Marked as sold.")).toBeVisible();
  await expect(header.getByTestId("listing-state")).toHaveText("Sold");
  await expect(ana.getByTestId("listing-state")).toHaveText("Sold");
  await shoot(page, header, SHOTS, "deal-header-sold");
});

test("a buyer withdraws; the seller declines: each card reads so on both sides", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await createStudent(page.context(), { campus: CAMPUS, label: "trade-seller2", fullName: "Sam Seller" });
  const title = `Bike lock ${Date.now()}`;
  const postUrl = await postListing(page, { title, price: "50" });

  const cy = await person(browser, "trade-cy", "Cy Buyer");
  const first = await makeOffer(cy, postUrl, { dollars: "30", price: "50" });
  await first.getByRole("button", { name: "Withdraw" }).click();
  await expect(first).toHaveAttribute("data-state", "withdrawn");
  await shoot(cy, first, SHOTS, "offer-withdrawn");
  const second = await makeOffer(cy, postUrl, { dollars: "35", price: "50" });
  const chatUrl = cy.url();
  await page.goto(chatUrl);
  await hydrated(page);
  await page.getByTestId("offer-card").last().getByRole("button", { name: "Decline" }).click();
  await expect(page.getByTestId("offer-card").last()).toHaveAttribute("data-state", "declined");
  await expect(second).toHaveAttribute("data-state", "declined");
  await shoot(cy, second, SHOTS, "offer-declined");

  // Decision 0602: an offer's card on an older page, loaded by scrolling up, is a card too.
  const statuses = await cy.evaluate(async (path) => {
    const answers: number[] = [];
    for (let n = 1; n <= 16; n++) {
      const form = new FormData();
      form.set("intent", "send-message");
      form.set("text", `Later message ${n}`);
      answers.push((await fetch(path, { method: "POST", body: form })).status);
    }
    return answers;
  }, new URL(chatUrl).pathname);
  expect(new Set(statuses)).toEqual(new Set([200]));
  await cy.goto(chatUrl);
  await hydrated(cy);
  const thread = cy.getByRole("list", { name: "Messages" });
  await expect(thread.getByText("Later message 16", { exact: true })).toBeVisible();
  await expect(cy.getByTestId("offer-card")).toHaveCount(0);
  await thread.hover();
  await cy.mouse.wheel(0, -5000);
  await expect(cy.getByTestId("offer-card")).toHaveCount(2);
  await expect(cy.getByTestId("offer-card").first()).toHaveAttribute("data-state", "withdrawn");
  await expect(cy.getByTestId("offer-card").last()).toHaveAttribute("data-state", "declined");
});

test("Send Message on a listing offers quick starts; one tap sends it and the conversation is about the listing", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await createStudent(page.context(), { campus: CAMPUS, label: "trade-seller3", fullName: "Sue Seller" });
  const title = `Rice cooker ${Date.now()}`;
  const postUrl = await postListing(page, { title, price: "20", offers: false });

  const dee = await person(browser, "trade-dee", "Dee Buyer");
  await dee.goto(postUrl);
  await hydrated(dee);
  await dee
    .getByRole("link", { name: /Send Message/ })
    .first()
    .click();
  await hydrated(dee);
  const quick = dee.getByRole("group", { name: "Quick messages" });
  await expect(quick.getByRole("button")).toHaveText([
    "Is this still available?",
    "Is the price negotiable?",
    "When can we meet?",
  ]);
  await shoot(dee, quick, SHOTS, "quick-starts");
  await quick.getByRole("button", { name: "Is this still available?" }).click();
  await expect(dee).toHaveURL(/\/messages\/[0-9a-f-]{36}/);
  await expect(dee.getByRole("list", { name: "Messages" })).toContainText("Is this still available?");
  await expect(dee.getByTestId("trade-header")).toContainText(title);
  await expect(dee.getByRole("group", { name: "Quick messages" })).toHaveCount(0);
});
