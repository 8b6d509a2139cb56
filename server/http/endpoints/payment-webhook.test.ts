import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import express from "express";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestMember, createTestPost } from "../../../tests/support/factories";
import { createTestContext, type TestContext } from "../../../tests/support/test-context";
import { boostPost } from "../../ads/boost";
import { ads } from "../../db/schema";
import { limitRequestBodies } from "../middleware/body-limit";
import { refuseNonFormWrites } from "../middleware/form-bodies";
import { mountAnalytics } from "./analytics-beacon";
import { mountPaymentWebhook, PAYMENT_WEBHOOK_PATH } from "./payment-webhook";

// Decision 0270: the webhook reads the raw body ahead of the app's body rules (here the real
// ones: the body limit and the form-only guard, which would refuse Stripe's JSON), checks the
// signature over those exact bytes, and fulfils once.

let t: TestContext;
let base: string;
let close: () => Promise<void>;

beforeEach(async () => {
  t = await createTestContext();
  const app = express();
  mountPaymentWebhook(app, t.ctx);
  app.use(limitRequestBodies());
  mountAnalytics(app, { ctx: t.ctx, auth: t.auth });
  app.use(refuseNonFormWrites());
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});
afterEach(async () => {
  await close();
  await t.close();
});

describe(`POST ${PAYMENT_WEBHOOK_PATH}`, () => {
  it("fulfils a signed delivery from its raw bytes and answers 400 to a tampered one", async () => {
    const seller = await createTestMember(t);
    const post = await createTestPost(t, seller.viewer);
    const { adId } = await boostPost(
      t.ctx,
      seller.viewer,
      { postId: post.id, campusId: "ou" },
      { goal: "message", days: "2" },
      "http://ou.localhost:3000",
    );
    const [ad] = await t.ctx.db.select().from(ads).where(eq(ads.id, adId));
    // Spacing a JSON parser would not keep: the signature is over these exact bytes.
    const payload = `{ "id": "evt_route", "type": "checkout.session.completed", "data": { "object": { "id": "${ad?.checkoutSessionId}", "payment_status": "paid", "amount_total": 1000, "currency": "usd", "metadata": { "adId": "${adId}" }, "payment_intent": "pi_route" } } }`;
    const signature = t.ctx.payments.signPayload(payload);
    const send = (body: string, sig: string) =>
      fetch(`${base}${PAYMENT_WEBHOOK_PATH}`, {
        method: "POST",
        headers: { "content-type": "application/json", "stripe-signature": sig },
        body,
      });
    const tampered = await send(payload.replace("1000", "100"), signature);
    expect(tampered.status).toBe(400);
    const answer = await send(payload, signature);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ received: true, outcome: "activated" });
    const replay = await send(payload, signature);
    expect(await replay.json()).toEqual({ received: true, outcome: "duplicate-event" });
    const [after] = await t.ctx.db.select().from(ads).where(eq(ads.id, adId));
    expect(after?.status).toBe("active");
  });
});
