import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import express from "express";
import { afterAll, describe, expect, it } from "vitest";
import { createTestMember, type TestMember } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { loadConfig } from "../config";
import { deals, posts, reviews } from "../db/schema";
import { getReputation } from "../trade/reputation";
import { mountDealFixture, TEST_DEAL_PATH, type TestDeal } from "./test-deal";

// Decision 0607: the finished-sale fixture exists only outside production with TEST_FIXTURES=1,
// and leaves what the trade's own writers leave.

const contexts: TestContext[] = [];
afterAll(async () => {
  for (const t of contexts) await t.close();
});

async function app(env: Record<string, string>) {
  const t = await createTestContext(
    loadConfig({ APP_SECRET: "test-secret-test-secret-test-secret", DATA_DIR: ".tmp/test-data", ...env }),
  );
  contexts.push(t);
  const seller = await createTestMember(t);
  const server = express();
  mountDealFixture(server, { ctx: t.ctx, auth: t.auth });
  server.use((_req, res) => {
    res.status(404).json({ message: "Not Found" });
  });
  const listening = server.listen(0, "127.0.0.1");
  await new Promise((resolve) => listening.once("listening", resolve));
  const { port } = listening.address() as AddressInfo;
  const post = async (who: TestMember | null, body: unknown) => {
    const response = await fetch(`http://127.0.0.1:${port}${TEST_DEAL_PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(who ? { cookie: who.cookie } : {}) },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as TestDeal & { message?: string } };
  };
  const close = () => new Promise((resolve) => listening.close(resolve));
  return { t, seller, post, close };
}

describe("POST /dev/test-deal", () => {
  it("is absent in production, even with TEST_FIXTURES=1, and without the opt-in", async () => {
    const envs: Record<string, string>[] = [{ NODE_ENV: "production", TEST_FIXTURES: "1" }, {}];
    for (const env of envs) {
      const { seller, post, close } = await app(env);
      try {
        expect((await post(seller, {})).status).toBe(404);
      } finally {
        await close();
      }
    }
  });

  it("gives the signed-in seller a completed, reviewed sale; three make the star average", async () => {
    const { t, seller, post, close } = await app({ TEST_FIXTURES: "1" });
    try {
      expect((await post(null, {})).status).toBe(401);
      expect((await post(seller, { stars: 6 })).status).toBe(400);

      const first = await post(seller, { stars: 5, price: 30, text: "Great lamp." });
      expect(first.status).toBe(201);
      const [deal] = await t.ctx.db.select().from(deals).where(eq(deals.id, first.body.dealId));
      expect(deal).toMatchObject({
        sellerId: seller.id,
        buyerId: first.body.buyerId,
        postId: first.body.postId,
        state: "completed",
        amountCents: 3000,
      });
      const [listing] = await t.ctx.db.select().from(posts).where(eq(posts.id, first.body.postId));
      expect(listing).toMatchObject({ authorId: seller.id, listingStatus: "sold", priceCents: 3000 });
      const written = await t.ctx.db.select().from(reviews).where(eq(reviews.dealId, first.body.dealId));
      expect(written.map((row) => [row.subjectId, row.stars]).sort()).toEqual(
        [
          [seller.id, 5],
          [first.body.buyerId, 5],
        ].sort(),
      );
      expect(await getReputation(t.ctx.db, seller.id)).toMatchObject({
        reviewCount: 1,
        rating: null,
        tradesCompleted: 1,
      });

      expect((await post(seller, { stars: 4 })).status).toBe(201);
      expect((await post(seller, { stars: 5 })).status).toBe(201);
      const after = await getReputation(t.ctx.db, seller.id);
      expect(after).toMatchObject({ reviewCount: 3, tradesCompleted: 3 });
      expect(after?.rating).toBeCloseTo(14 / 3, 1);
    } finally {
      await close();
    }
  });
});
