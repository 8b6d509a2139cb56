import { deals } from "../../server/db/schema";
import { createTestMember, createTestPost, type TestMember } from "./factories";
import type { TestContext } from "./test-context";

/**
 * A completed deal written straight into `deals` (decision 0600's row), for the reviews' tests:
 * the deal writers are another module's, and these tests need only the row they leave.
 */
export async function createCompletedDeal(
  t: TestContext,
  options: {
    seller?: TestMember;
    buyer?: TestMember;
    completedAt?: Date;
    state?: "active" | "completed" | "cancelled";
  } = {},
): Promise<{ dealId: string; postId: string; seller: TestMember; buyer: TestMember }> {
  const seller = options.seller ?? (await createTestMember(t));
  const buyer = options.buyer ?? (await createTestMember(t));
  const post = await createTestPost(t, seller.viewer, { text: "Desk lamp", listing: { price: "20" } });
  const state = options.state ?? "completed";
  const completedAt = state === "completed" ? (options.completedAt ?? t.clock.now()) : null;
  const [deal] = await t.ctx.db
    .insert(deals)
    .values({
      campusId: seller.viewer.campusId,
      postId: post.id,
      sellerId: seller.id,
      buyerId: buyer.id,
      amountCents: 2000,
      state,
      createdAt: completedAt ?? t.clock.now(),
      completedAt,
    })
    .returning({ id: deals.id });
  if (!deal) throw new Error("no deal");
  return { dealId: deal.id, postId: post.id, seller, buyer };
}
