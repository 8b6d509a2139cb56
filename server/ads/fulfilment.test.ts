import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestMember, createTestPost, type TestMember } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { ads, mailOutbox, payments } from "../db/schema";
import { boostPost, cancelCheckout } from "./boost";
import { AD_MESSAGES } from "./errors.shared";
import { confirmCheckout, fulfillCheckout, handlePaymentWebhook, payTestCheckout } from "./fulfilment";
import { DAY_MS } from "./refunds";

let t: TestContext;
let owner: TestMember;
let postId: string;
const ORIGIN = "http://ou.localhost:3000";

beforeEach(async () => {
  t = await createTestContext();
  owner = await createTestMember(t);
  postId = (await createTestPost(t, owner.viewer, { text: "Desk lamp, $15" })).id;
});
afterEach(async () => {
  await t.close();
});

const ref = () => ({ postId, campusId: "ou" });
const websiteForm = (extra: Record<string, unknown> = {}) => ({
  goal: "website",
  websiteUrl: "https://www.example.com",
  buttonLabel: "Shop Now",
  title: "Lamp sale",
  days: "4",
  ...extra,
});

async function boost(extra: Record<string, unknown> = {}) {
  return boostPost(t.ctx, owner.viewer, ref(), websiteForm(extra), ORIGIN);
}

async function sessionOf(adId: string): Promise<string> {
  const [ad] = await t.ctx.db.select().from(ads).where(eq(ads.id, adId));
  if (!ad?.checkoutSessionId) throw new Error("no session");
  return ad.checkoutSessionId;
}

/** Boosts and pays through the test checkout (the signed event through the webhook handler). */
async function runningAd(extra: Record<string, unknown> = {}): Promise<string> {
  const { adId } = await boost(extra);
  await payTestCheckout(t.ctx, owner.viewer, {
    sessionId: await sessionOf(adId),
    card: "4242 4242 4242 4242",
  });
  return adId;
}

async function adRow(adId: string) {
  const [ad] = await t.ctx.db.select().from(ads).where(eq(ads.id, adId));
  return ad;
}

function completedEvent(sessionId: string, adId: string, overrides: Record<string, unknown> = {}) {
  return JSON.stringify({
    id: "evt_same_event",
    object: "event",
    type: "checkout.session.completed",
    data: {
      object: {
        id: sessionId,
        object: "checkout.session",
        status: "complete",
        payment_status: "paid",
        amount_total: 2000,
        currency: "usd",
        metadata: { adId },
        payment_intent: "pi_test_1",
        ...overrides,
      },
    },
  });
}

describe("fulfilment (decision 0270)", () => {
  it("activates through the test checkout: running for its days, one payment, one receipt", async () => {
    const adId = await runningAd();
    const ad = await adRow(adId);
    expect(ad?.status).toBe("active");
    expect(ad?.endTimeAdjusted?.getTime()).toBe(t.clock.now().getTime() + 4 * DAY_MS);
    expect(await t.ctx.db.select().from(payments)).toHaveLength(1);
    const receipts = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "ad-receipt"));
    expect(receipts.map((mail) => mail.to)).toEqual([owner.email]);
    expect(receipts[0]?.text).toContain("$20.00");
  });

  it("10 concurrent deliveries of one event give one activation, one payment row and one e-mail", async () => {
    const { adId } = await boost();
    const sessionId = await sessionOf(adId);
    const payload = completedEvent(sessionId, adId);
    const signature = t.ctx.payments.signPayload(payload);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => handlePaymentWebhook(t.ctx, payload, signature)),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(answers.filter((answer) => answer.body.outcome === "activated")).toHaveLength(1);
    expect(await t.ctx.db.select().from(payments)).toHaveLength(1);
    expect(await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "ad-receipt"))).toHaveLength(1);
    // The success page arriving after the webhook changes nothing either.
    expect(await confirmCheckout(t.ctx, owner.viewer, { postId, sessionId })).toEqual({ running: true });
    expect(await t.ctx.db.select().from(payments)).toHaveLength(1);
  });

  it("different events for one session (webhook, then a retry with a new id) still activate once", async () => {
    const { adId } = await boost();
    const sessionId = await sessionOf(adId);
    for (const id of ["evt_a", "evt_b"]) {
      const payload = completedEvent(sessionId, adId, {}).replace("evt_same_event", id);
      await handlePaymentWebhook(t.ctx, payload, t.ctx.payments.signPayload(payload));
    }
    expect(await t.ctx.db.select().from(payments)).toHaveLength(1);
    expect(await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "ad-receipt"))).toHaveLength(1);
  });

  it("refuses a paid session whose amount or currency does not match the ad", async () => {
    const { adId } = await boost();
    const sessionId = await sessionOf(adId);
    for (const [index, overrides] of [{ amount_total: 500 }, { currency: "eur" }].entries()) {
      const payload = completedEvent(sessionId, adId, overrides).replace("evt_same_event", `evt_${index}`);
      const answer = await handlePaymentWebhook(t.ctx, payload, t.ctx.payments.signPayload(payload));
      expect(answer.body.outcome).toBe("refused");
    }
    expect((await adRow(adId))?.status).toBe("checkout");
    expect(await t.ctx.db.select().from(payments)).toHaveLength(0);
  });

  it("answers 400 to a tampered body, a stale signature, another secret's signature and none", async () => {
    const { adId } = await boost();
    const payload = completedEvent(await sessionOf(adId), adId);
    const signature = t.ctx.payments.signPayload(payload);
    const tampered = payload.replace('"amount_total":2000', '"amount_total":2001');
    expect((await handlePaymentWebhook(t.ctx, tampered, signature)).status).toBe(400);
    const stale = t.ctx.payments.signPayload(payload, Math.floor(Date.now() / 1000) - 301);
    expect((await handlePaymentWebhook(t.ctx, payload, stale)).status).toBe(400);
    const { createTestPayments } = await import("../payments/payments");
    const stranger = createTestPayments({ webhookSecret: "whsec_other", readSession: async () => null });
    expect((await handlePaymentWebhook(t.ctx, payload, stranger.signPayload(payload))).status).toBe(400);
    expect((await handlePaymentWebhook(t.ctx, payload, undefined)).status).toBe(400);
    expect((await adRow(adId))?.status).toBe("checkout");
  });

  it("does nothing for an unpaid session and says 'being processed' until it is paid", async () => {
    const { adId } = await boost();
    const sessionId = await sessionOf(adId);
    expect(await confirmCheckout(t.ctx, owner.viewer, { postId, sessionId })).toEqual({ running: false });
    const outcome = await fulfillCheckout(
      t.ctx,
      {
        id: sessionId,
        status: "open",
        paymentStatus: "unpaid",
        amountTotal: 2000,
        currency: "usd",
        adId,
        paymentIntent: null,
      },
      null,
    );
    expect(outcome).toBe("not-paid");
    expect((await adRow(adId))?.status).toBe("checkout");
  });

  it("the declining test card is refused and nothing runs", async () => {
    const { adId } = await boost();
    await expect(
      payTestCheckout(t.ctx, owner.viewer, { sessionId: await sessionOf(adId), card: "4000 0000 0000 0002" }),
    ).rejects.toMatchObject({ message: AD_MESSAGES.cardDeclined });
    expect((await adRow(adId))?.status).toBe("checkout");
  });

  it("cancel deletes an ad still in checkout; a payment arriving afterwards is refunded in full", async () => {
    const { adId } = await boost();
    const sessionId = await sessionOf(adId);
    expect(await cancelCheckout(t.ctx, owner.viewer, { postId, sessionId })).toEqual({ deleted: true });
    expect(await adRow(adId)).toBeUndefined();
    const payload = completedEvent(sessionId, adId);
    const answer = await handlePaymentWebhook(t.ctx, payload, t.ctx.payments.signPayload(payload));
    expect(answer.body.outcome).toBe("refunded");
    const rows = await t.ctx.db.select().from(payments).orderBy(payments.kind);
    expect(rows.map((row) => [row.kind, row.amount, row.status])).toEqual([
      ["payment", 2000, "succeeded"],
      ["refund", 2000, "succeeded"],
    ]);
  });

  it("cancel after payment deletes nothing", async () => {
    const adId = await runningAd();
    expect(await cancelCheckout(t.ctx, owner.viewer, { postId, sessionId: await sessionOf(adId) })).toEqual({
      deleted: false,
    });
    expect((await adRow(adId))?.status).toBe("active");
  });
});
