import { eq } from "drizzle-orm";
import type express from "express";
import { z } from "zod";
import type { Auth } from "../accounts/auth";
import { getViewerById, type Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import { offers } from "../db/schema";
import { createPost } from "../posts/posts";
import { plainTextToRichText } from "../posts/rich-text.shared";
import { completeDeal } from "../trade/deals";
import { acceptOffer } from "../trade/offer-accept";
import { makeOffer } from "../trade/offers";
import { writeReview } from "../trade/reviews";
import { mountSignedInFixture } from "./signed-in-fixture";
import { createTestStudent } from "./test-student";

/**
 * Decision 0607: an end-to-end fixture that gives the signed-in student a finished sale, as the
 * product's own paths leave it: a listing of theirs (createPost), a new buyer of their campus who
 * offers the price (makeOffer), the seller's accept (acceptOffer), 'Mark sold' (completeDeal) and
 * both reviews (writeReview), so every rule of the trade applies and the reputations are recounted
 * by their writers. The journey spec seeds a seller's earlier trades with it instead of writing
 * rows. Like POST /dev/test-student (decision 0155) it exists only outside production with
 * TEST_FIXTURES=1.
 */
export const TEST_DEAL_PATH = "/dev/test-deal";

const requestSchema = z
  .object({
    /** The buyer's review of the seller. */
    stars: z.number().int().min(1).max(5).default(5),
    /** The seller's review of the buyer. */
    buyerStars: z.number().int().min(1).max(5).default(5),
    text: z.string().trim().max(500).default("Smooth trade."),
    /** Whole dollars, the listing's price and the deal's amount. */
    price: z.number().int().min(1).max(1000).default(25),
  })
  .strict();

export type TestDealRequest = z.input<typeof requestSchema>;

export interface TestDeal {
  dealId: string;
  postId: string;
  buyerId: string;
}

async function member(ctx: AppContext, id: string): Promise<Viewer> {
  const viewer = await getViewerById(ctx, id);
  if (!viewer) throw new Error(`no viewer ${id}`);
  return viewer;
}

async function giveSale(ctx: AppContext, auth: Auth, seller: Viewer, input: unknown): Promise<TestDeal> {
  const options = requestSchema.parse(input);
  const madeBuyer = await createTestStudent(ctx, auth, {
    campus: seller.campusId,
    label: "deal-buyer",
    fullName: "Earlier Buyer",
  });
  const buyer = await member(ctx, madeBuyer.id);
  const post = await createPost(ctx, seller, {
    campusId: seller.campusId,
    text: JSON.stringify(plainTextToRichText(`Earlier sale for $${options.price}`)),
    category: null,
    listing: { price: String(options.price), priceTerms: "offers" },
    files: [],
  });
  const amountCents = options.price * 100;
  const { offerId } = await makeOffer(ctx, buyer, { postId: post.id, amountCents });
  const [offer] = await ctx.db
    .select({ version: offers.version })
    .from(offers)
    .where(eq(offers.id, offerId))
    .limit(1);
  const { dealId } = await acceptOffer(ctx, seller, offerId, { amountCents, version: offer?.version });
  await completeDeal(ctx, seller, dealId);
  await writeReview(ctx, buyer, { dealId, stars: options.stars, publicText: options.text });
  await writeReview(ctx, seller, {
    dealId,
    stars: options.buyerStars,
    publicText: "Paid as agreed.",
  });
  return { dealId, postId: post.id, buyerId: buyer.id };
}

/** Mounts `POST /dev/test-deal` when, and only when, testFixturesEnabled(config). */
export function mountDealFixture(app: express.Express, deps: { ctx: AppContext; auth: Auth }): void {
  mountSignedInFixture(app, deps, TEST_DEAL_PATH, "2kb", (viewer, body) =>
    giveSale(deps.ctx, deps.auth, viewer, body),
  );
}
