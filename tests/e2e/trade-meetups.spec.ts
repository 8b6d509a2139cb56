import { type Browser, expect as baseExpect, test } from "@playwright/test";
import { seriousAxeViolations } from "./support/axe";
import { hostUrl } from "./support/env";
import { hydrated, toast } from "./support/page";
import { createStudent } from "./support/student";
import { addMeetupSpot, proposeMeetup, shoot, tomorrowAtThree } from "./support/trade";

// Decisions 0610-0614 (docs/product/meetups.md): a site admin adds a meetup spot on the console's
// campus page; in a conversation the buyer proposes a meetup there, the seller accepts it, and
// both see the card and the top of the conversation change, with 'Open in Maps'. Three browser
// contexts on UCF (Orlando, so Eastern Time).

const CAMPUS = "ucf";
const SHOTS = process.env.MEETUP_SCREENSHOTS_DIR ?? "/tmp/shots-meetups";
test.use({ baseURL: hostUrl(CAMPUS), actionTimeout: 20_000 });
test.describe.configure({ timeout: 180_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

function unique(what: string): string {
  return `${what} ${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
}

async function context(browser: Browser) {
  return browser.newContext({ baseURL: hostUrl(CAMPUS), viewport: { width: 1280, height: 900 } });
}

test("an admin adds a spot; the buyer proposes a meetup there, the seller accepts, both see it", async ({
  browser,
}) => {
  const spotName = unique("Library front desk");
  const address = "12701 Pegasus Dr, Orlando, FL 32816";

  // The site admin adds the campus's spot.
  const adminContext = await context(browser);
  const admin = await adminContext.newPage();
  await createStudent(adminContext, { campus: CAMPUS, label: "meetup-admin", siteAdmin: true });
  const section = await addMeetupSpot(admin, CAMPUS, {
    name: spotName,
    kind: "library",
    address,
    hours: "Daily 8 AM – 10 PM",
    rules: "Meet inside by the front desk.",
  });
  await expect(
    admin.getByRole("region", { name: "Changes" }).getByText("Added a meetup spot").first(),
  ).toBeVisible();
  // A second one, moved to the top of the list.
  const union = unique("Student Union info desk");
  await section.getByLabel("Name", { exact: true }).last().fill(union);
  await section.getByLabel("Kind", { exact: true }).last().selectOption("union");
  await section.getByLabel("Address", { exact: true }).last().fill("12715 Pegasus Dr, Orlando, FL 32816");
  await section.getByRole("button", { name: "Add spot" }).click();
  await expect(section.getByText(union, { exact: true }).first()).toBeVisible();
  await section.getByRole("button", { name: `Move ${union} up` }).click();
  await expect(toast(admin, "Meetup spot moved.")).toBeVisible();
  await expect(section.getByRole("listitem").first()).toContainText(union);
  await shoot(admin, section, SHOTS, "console-spots");
  expect(await seriousAxeViolations(admin)).toEqual([]);
  await adminContext.close();

  const sellerContext = await context(browser);
  const buyerContext = await context(browser);
  try {
    const words = unique("Desk lamp");
    const seller = await createStudent(sellerContext, {
      campus: CAMPUS,
      label: "meetup-seller",
      posts: [{ text: `${words}, bright and dimmable`, photos: 1 }],
    });
    await createStudent(buyerContext, { campus: CAMPUS, label: "meetup-buyer" });
    const buyer = await buyerContext.newPage();
    const sellerPage = await sellerContext.newPage();

    // The buyer writes from the listing, then proposes a meetup.
    await buyer.goto(`/post/${seller.postIds[0]}`);
    await hydrated(buyer);
    await buyer.getByRole("button", { name: "More options for this post" }).first().click();
    await buyer.getByRole("menuitem", { name: "Send Message" }).click();
    await expect(buyer).toHaveURL(/\/messages\/new\?to=/);
    await buyer.getByRole("textbox", { name: "Message" }).fill("Is the lamp still available?");
    await buyer.getByRole("button", { name: "Send", exact: true }).click();
    await expect(buyer).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
    const chatPath = new URL(buyer.url()).pathname;
    await hydrated(buyer);

    const buyerCard = await proposeMeetup(buyer, {
      spotName,
      when: tomorrowAtThree("America/New_York"),
      beforeSend: async (dialog) => {
        await expect(dialog.getByText("Eastern Time, within the next 30 days.")).toBeVisible();
        await shoot(buyer, dialog, SHOTS, "propose-dialog");
        expect(await seriousAxeViolations(buyer)).toEqual([]);
      },
    });
    await expect(buyerCard).toContainText("Proposed");
    await expect(buyerCard).toContainText(spotName);
    await expect(buyerCard).toContainText(/3:00 PM E[SD]T/);
    await expect(buyerCard.getByText(/Waiting for/)).toBeVisible();
    await expect(buyerCard.getByRole("button", { name: "Accept" })).toHaveCount(0);
    await shoot(buyer, buyerCard, SHOTS, "meetup-card-proposed");

    // The seller accepts; the buyer's card and the top of the conversation change live.
    await sellerPage.goto(chatPath);
    await hydrated(sellerPage);
    const sellerCard = sellerPage.getByTestId("meetup-card").last();
    await expect(sellerCard).toContainText("proposed a meetup");
    const maps = sellerCard.getByRole("link", { name: /Open in Maps/ });
    await expect(maps).toHaveAttribute(
      "href",
      `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address)}`,
    );
    await expect(maps).toHaveAttribute("rel", "noopener noreferrer");
    await sellerCard.getByRole("button", { name: "Accept" }).click();
    await expect(toast(sellerPage, "Meetup accepted.")).toBeVisible();
    await expect(sellerCard).toContainText("Accepted");
    for (const page of [sellerPage, buyer]) {
      const top = page.getByRole("region", { name: "Accepted meetup" });
      await expect(top).toContainText(spotName);
      await expect(top.getByRole("link", { name: /Open in Maps/ })).toBeVisible();
    }
    await expect(buyerCard).toContainText("Accepted");
    await shoot(buyer, buyerCard, SHOTS, "meetup-card-accepted");
    await shoot(buyer, buyer.getByRole("region", { name: "Accepted meetup" }), SHOTS, "accepted-meetup-top");
    await shoot(buyer, buyer, SHOTS, "meetup-conversation");
    expect(await seriousAxeViolations(sellerPage)).toEqual([]);
  } finally {
    await sellerContext.close();
    await buyerContext.close();
  }
});
