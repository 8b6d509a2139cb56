import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, type BrowserContext, expect, test } from "@playwright/test";
import pg from "pg";
import { type AppProcess, startAppProcess } from "../../scripts/app-process";
import type { TestStudent } from "../../server/dev/test-student";
import { APP_PORT } from "./support/env";
import { POSTGRES_SERVER_URL, postgresAdmin, postgresReachable } from "./support/postgres";
import { writeReview } from "./support/trade";

// Decisions 0615–0618: both people of a completed deal review each other, blind until the second;
// the seller's Reviews tab shows them and, from three deals up, the star average. The deals are
// written straight into the spec's own PostgreSQL database (the deal writers are another part of
// the product), so this spec starts an app of its own on it; without PostgreSQL it is skipped.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const PORT = Number(process.env.E2E_REVIEWS_PORT ?? APP_PORT + 12);
const ORIGIN = `http://localhost:${PORT}`;
const SHOTS = path.join(root, "test-results", "screenshots");
test.describe.configure({ mode: "serial" });

let database = "";
let databaseUrl = "";
let dataDir = "";
let app: AppProcess | null = null;

test.beforeAll(async () => {
  if (!(await postgresReachable())) return;
  test.setTimeout(180_000);
  database = `cbs_reviews_${randomBytes(4).toString("hex")}`;
  await postgresAdmin((client) => client.query(`create database ${database}`));
  const url = new URL(POSTGRES_SERVER_URL);
  url.pathname = `/${database}`;
  databaseUrl = url.toString();
  dataDir = mkdtempSync(path.join(tmpdir(), "cbs-e2e-reviews-"));
  app = await startAppProcess({
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(PORT),
      DATABASE_URL: databaseUrl,
      WORKERS: "1",
      DATA_DIR: dataDir,
      SEED_DEMO: "0",
      LOG_LEVEL: "warn",
      TEST_FIXTURES: "1",
      PUBLIC_CAMPUSES: "all",
      NOTIFICATION_EMAIL_DELAY: "0",
    },
    port: PORT,
    output: path.join(root, "test-results", "e2e-trade-reviews-app.log"),
    name: "trade-reviews app",
  });
});

test.afterAll(async () => {
  await app?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  if (database)
    await postgresAdmin((client) => client.query(`drop database if exists ${database} with (force)`));
});

test.beforeEach(() => {
  test.skip(app === null, `no PostgreSQL reachable at ${POSTGRES_SERVER_URL} (set DATABASE_URL)`);
});

async function student(label: string, fullName: string, posts: string[] = []): Promise<TestStudent> {
  const response = await fetch(`${ORIGIN}/dev/test-student`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ label, fullName, posts: posts.map((text) => ({ text })) }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as TestStudent;
}

/** A completed deal on a listing of the seller's, as the deal writers leave it (decision 0600). */
async function completedDeal(seller: TestStudent, buyer: TestStudent, postId: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("update posts set price_cents = 2500 where id = $1", [postId]);
    const result = await client.query<{ id: string }>(
      `insert into deals (campus_id, post_id, seller_id, buyer_id, amount_cents, state, completed_at)
       values ('ou', $1, $2, $3, 2500, 'completed', now()) returning id`,
      [postId, seller.id, buyer.id],
    );
    return result.rows[0]?.id ?? "";
  } finally {
    await client.end();
  }
}

const reviewUrl = (dealId: string) => `${ORIGIN}/deals/${dealId}/review`;

async function signedIn(browser: Browser, person: TestStudent, width = 1280): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  await context.addCookies([{ ...person.cookie, url: ORIGIN }]);
  return context;
}

test("both review, blind until the second; the seller's Reviews tab and, after three deals, the average", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const seller = await student("rv-seller", "Sam Seller", ["Desk lamp", "Bike lock", "Textbook"]);
  const buyer = await student("rv-buyer", "Bea Buyer");
  const stranger = await student("rv-stranger", "Stan Stranger");
  const [lamp, lock, book] = seller.postIds as [string, string, string];
  const dealId = await completedDeal(seller, buyer, lamp);

  const sellerContext = await signedIn(browser, seller);
  const buyerContext = await signedIn(browser, buyer);
  const strangerContext = await signedIn(browser, stranger);
  const sellerPage = await sellerContext.newPage();
  const buyerPage = await buyerContext.newPage();

  // A stranger does not learn the deal exists.
  const strangerPage = await strangerContext.newPage();
  const refused = await strangerPage.goto(`${ORIGIN}/deals/${dealId}/review`);
  expect(refused?.status()).toBe(404);

  // The review form, looked at on a phone and a desktop.
  await buyerPage.goto(`${ORIGIN}/deals/${dealId}/review`);
  await expect(buyerPage.getByRole("heading", { name: /^Review Sam/ })).toBeVisible();
  await buyerPage.screenshot({ path: path.join(SHOTS, "review-form-1280.png"), fullPage: true });
  await buyerPage.setViewportSize({ width: 390, height: 844 });
  await buyerPage.screenshot({ path: path.join(SHOTS, "review-form-390.png"), fullPage: true });
  await buyerPage.setViewportSize({ width: 1280, height: 900 });

  await writeReview(buyerPage, reviewUrl(dealId), {
    stars: 5,
    tags: ["Item as described", "Friendly"],
    text: "Lamp exactly as pictured.",
    note: "Reply a little faster next time",
  });

  // Blind: the seller is told only that they were reviewed; nothing is on the profile yet.
  await sellerPage.goto(`${ORIGIN}/deals/${dealId}/review`);
  await expect(sellerPage.getByText("You've been reviewed — write yours to see it")).toBeVisible();
  await expect(sellerPage.getByText("Lamp exactly as pictured.")).toHaveCount(0);
  await buyerPage.goto(`${ORIGIN}/${seller.username}?show=reviews`);
  await expect(buyerPage.getByText("No reviews yet")).toBeVisible();
  await expect(buyerPage.getByTestId("reputation-line")).toContainText("New seller");

  // The second review publishes both.
  await writeReview(sellerPage, reviewUrl(dealId), {
    stars: 5,
    tags: ["Paid as agreed"],
    text: "Paid on the spot.",
  });
  await expect(sellerPage.getByText("Lamp exactly as pictured.")).toBeVisible();
  await expect(sellerPage.getByText("Reply a little faster next time")).toBeVisible();
  await buyerPage.goto(`${ORIGIN}/deals/${dealId}/review`);
  await expect(buyerPage.getByText("Paid on the spot.")).toBeVisible();

  // The seller's Reviews tab: the review for everyone, the private note for the seller only.
  await buyerPage.goto(`${ORIGIN}/${seller.username}?show=reviews`);
  await expect(buyerPage.getByText("Lamp exactly as pictured.")).toBeVisible();
  expect(await buyerPage.content()).not.toContain("Reply a little faster next time");
  await expect(buyerPage.getByTestId("reputation-line")).toContainText("1 trade completed");

  // Two more trades, with two more buyers, reviewed both ways: the average shows from three.
  for (const [label, postId, stars] of [
    ["rv-buyer-2", lock, 4],
    ["rv-buyer-3", book, 5],
  ] as const) {
    const other = await student(label, "Another Buyer");
    const id = await completedDeal(seller, other, postId);
    const context = await signedIn(browser, other);
    await writeReview(await context.newPage(), reviewUrl(id), {
      stars,
      tags: [],
      text: `Good trade ${label}`,
    });
    await writeReview(sellerPage, reviewUrl(id), { stars: 5, tags: [], text: "Thanks!" });
    await context.close();
  }
  await sellerPage.goto(`${ORIGIN}/profile?show=reviews`);
  await expect(sellerPage.getByTestId("reputation-line")).toContainText("★ 4.7 · 3 reviews");
  await expect(sellerPage.getByTestId("reputation-line")).toContainText("3 trades completed");
  await expect(sellerPage.getByText("Things to improve")).toBeVisible();
  await sellerPage.screenshot({ path: path.join(SHOTS, "profile-reviews-1280.png"), fullPage: true });
  await sellerPage.setViewportSize({ width: 390, height: 844 });
  await sellerPage.screenshot({ path: path.join(SHOTS, "profile-reviews-390.png"), fullPage: true });

  // The seller replies once.
  await sellerPage.setViewportSize({ width: 1280, height: 900 });
  await sellerPage.locator("summary", { hasText: "Reply" }).first().click();
  await sellerPage.getByLabel("Add a public reply (once)").first().fill("Glad it works!");
  await sellerPage.getByRole("button", { name: "Post reply" }).first().click();
  await expect(sellerPage.getByText("Glad it works!")).toBeVisible();

  // The listing's page carries the seller's line.
  await buyerPage.goto(`${ORIGIN}/post/${lamp}`);
  await expect(buyerPage.getByTestId("reputation-line")).toContainText("★ 4.7 · 3 reviews");
  // And the listing's card in the feed, beside Send Message (server-rendered words).
  await buyerPage.goto(`${ORIGIN}/home`);
  const card = buyerPage.getByRole("article").filter({ hasText: "Desk lamp" });
  await expect(card.getByText("★ 4.7 · 3 reviews")).toBeVisible();
  await buyerPage.screenshot({ path: path.join(SHOTS, "feed-card-rating-1280.png") });

  await sellerContext.close();
  await buyerContext.close();
  await strangerContext.close();
});
