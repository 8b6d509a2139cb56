import { and, eq } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import { campusOrigin } from "../campuses/campuses";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { ads, checkoutSessions, paymentEvents, payments, user } from "../db/schema";
import { enqueueMail } from "../mail/outbox";
import { renderMail } from "../mail/render";
import {
  type CheckoutSessionView,
  type PaymentEvent,
  TEST_CARDS,
  toCheckoutSessionView,
  WebhookSignatureError,
} from "../payments/payments";
import { AD_MESSAGES, AdError } from "./errors.shared";
import { AdReceiptEmail } from "./mails";
import { DAY_MS, processPendingRefunds } from "./refunds";
import { formatUsd } from "./schemas.shared";

/**
 * Decision 0270, docs/research/round-2.md §4: ONE fulfilment function behind the webhook and the success
 * page, whichever comes first. In one transaction it records the event id (unique: a replay
 * does nothing), checks the session is paid for exactly the ad's amount in usd, and activates
 * the ad only if it is still in checkout (a conditional update on a locked row). So any number
 * of concurrent deliveries give one activation, one payment row and one receipt e-mail.
 */
export type FulfilmentOutcome =
  /** The ad runs from now. */
  | "activated"
  /** Done before (another delivery, the success page or the webhook). */
  | "already"
  /** This event id was handled before. */
  | "duplicate-event"
  /** Not paid (yet): an async payment's later event will come. */
  | "not-paid"
  /** Paid, but not for the ad's amount or currency, or for no ad we know: nothing runs. */
  | "refused"
  /** Paid for an ad that is gone (cancelled meanwhile): recorded and refunded in full. */
  | "refunded";

export async function fulfillCheckout(
  ctx: AppContext,
  session: CheckoutSessionView,
  event: { id: string; type: string } | null,
): Promise<FulfilmentOutcome> {
  const now = ctx.clock.now();
  const outcome = await ctx.db.transaction(async (tx): Promise<FulfilmentOutcome> => {
    if (event) {
      const recorded = await tx
        .insert(paymentEvents)
        .values({ id: event.id, type: event.type, receivedAt: now })
        .onConflictDoNothing()
        .returning({ id: paymentEvents.id });
      if (recorded.length === 0) return "duplicate-event";
    }
    if (session.paymentStatus !== "paid") return "not-paid";
    const [stored] = await tx
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.id, session.id))
      .limit(1)
      .for("update");
    if (!stored) {
      ctx.log.error({ sessionId: session.id }, "paid checkout session we never created");
      return "refused";
    }
    const [ad] = stored.adId
      ? await tx.select().from(ads).where(eq(ads.id, stored.adId)).limit(1).for("update")
      : [];
    const provider = stored.provider;
    if (session.adId !== null && stored.adId !== null && session.adId !== stored.adId) {
      ctx.log.error({ sessionId: session.id }, "checkout session names another ad");
      return "refused";
    }
    if (session.amountTotal !== stored.amountTotal || (session.currency ?? "").toLowerCase() !== "usd") {
      // Decision 0270: the amount must match what the ad costs (500 × days), or nothing runs.
      ctx.log.error(
        { sessionId: session.id, amount: session.amountTotal, expected: stored.amountTotal },
        "checkout amount does not match the ad",
      );
      return "refused";
    }
    await tx
      .update(checkoutSessions)
      .set({ status: "complete", paymentIntent: session.paymentIntent })
      .where(eq(checkoutSessions.id, session.id));
    const [payment] = await tx
      .insert(payments)
      .values({
        userId: stored.userId,
        campusId: stored.campusId,
        adId: ad?.id ?? null,
        kind: "payment",
        amount: stored.amountTotal,
        provider,
        providerRef: session.paymentIntent,
        checkoutSessionId: session.id,
        description: `Boost post (${stored.amountTotal / 500} day${stored.amountTotal === 500 ? "" : "s"})`,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: payments.id });
    if (!payment) return "already";
    if (ad?.status !== "checkout") {
      // Cancelled (or replaced) while the payment went through: the money goes back in full.
      await tx.insert(payments).values({
        userId: stored.userId,
        campusId: stored.campusId,
        adId: ad?.id ?? null,
        kind: "refund",
        status: "pending",
        amount: stored.amountTotal,
        provider,
        refundOf: session.paymentIntent,
        description: "Refund: boost cancelled",
        createdAt: now,
      });
      return "refunded";
    }
    const activated = await tx
      .update(ads)
      .set({
        status: "active",
        startTime: now,
        endTimeAdjusted: new Date(now.getTime() + ad.days * DAY_MS),
        paymentId: payment.id,
        lastModified: now,
      })
      .where(and(eq(ads.id, ad.id), eq(ads.status, "checkout")))
      .returning({ id: ads.id });
    if (activated.length === 0) return "already";
    await queueReceipt(ctx, tx, ad, stored.amountTotal, provider === "test", now);
    return "activated";
  });
  if (outcome === "activated") {
    ctx.wakeMailWorker();
    ctx.onAdsChanged?.();
  }
  if (outcome === "refunded") await processPendingRefunds(ctx);
  return outcome;
}

async function queueReceipt(
  ctx: AppContext,
  tx: Queryable,
  ad: typeof ads.$inferSelect,
  amount: number,
  testMode: boolean,
  now: Date,
): Promise<void> {
  const [owner] = await tx.select({ email: user.email }).from(user).where(eq(user.id, ad.userId)).limit(1);
  if (!owner) return;
  const campus = ctx.campuses.get(ad.campusId);
  const origin = campusOrigin(ad.campusId, null, ctx.config);
  const { html, text } = await renderMail(
    AdReceiptEmail({
      campusName: campus?.name ?? "Campus",
      amount: formatUsd(amount),
      days: ad.runUntilPause
        ? "up to 30 days (run until paused)"
        : `${ad.days} day${ad.days === 1 ? "" : "s"}`,
      title: ad.title,
      adUrl: `${origin}/ads/${ad.id}`,
      testMode,
    }),
  );
  await enqueueMail(
    tx,
    { campusId: ad.campusId, kind: "ad-receipt", to: owner.email, subject: "Your ad is running", html, text },
    now,
  );
}

/** The checkout.session.* events fulfilment acts on (decision 0270). */
const FULFIL_EVENTS = new Set(["checkout.session.completed", "checkout.session.async_payment_succeeded"]);

export interface WebhookAnswer {
  status: number;
  body: { received: boolean; outcome?: string; error?: string };
}

/**
 * The webhook (decision 0270): the raw body's signature is checked (STRIPE_WEBHOOK_SECRET,
 * 5 minutes' tolerance) — tampered or stale → 400; a completed or async-paid session is
 * fulfilled; an expired one deletes its ad still in checkout; anything else is acknowledged.
 * The test checkout's Pay sends its signed event through this same function.
 */
export async function handlePaymentWebhook(
  ctx: AppContext,
  rawBody: Buffer | string,
  signature: string | undefined,
): Promise<WebhookAnswer> {
  let event: PaymentEvent;
  try {
    event = ctx.payments.verifyWebhook(rawBody, signature);
  } catch (error) {
    if (error instanceof WebhookSignatureError) {
      ctx.log.warn({ reason: error.message }, "webhook refused");
      return { status: 400, body: { received: false, error: "Invalid signature" } };
    }
    throw error;
  }
  if (FULFIL_EVENTS.has(event.type)) {
    const outcome = await fulfillCheckout(ctx, toCheckoutSessionView(event.object), event);
    return { status: 200, body: { received: true, outcome } };
  }
  if (event.type === "checkout.session.expired") {
    await expireCheckout(ctx, toCheckoutSessionView(event.object).id);
    return { status: 200, body: { received: true, outcome: "expired" } };
  }
  return { status: 200, body: { received: true } };
}

/** A session that expired unpaid: its ad, still in checkout, goes (spec 2 §4 cancel rule). */
export async function expireCheckout(ctx: AppContext, sessionId: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(checkoutSessions)
      .set({ status: "expired" })
      .where(and(eq(checkoutSessions.id, sessionId), eq(checkoutSessions.status, "open")));
    await tx.delete(ads).where(and(eq(ads.checkoutSessionId, sessionId), eq(ads.status, "checkout")));
  });
}

/** The test checkout reads its sessions from the table (server/payments/payments.ts createTestPayments). */
export async function readStoredCheckoutSession(
  ctx: Pick<AppContext, "db">,
  id: string,
): Promise<CheckoutSessionView | null> {
  const [row] = await ctx.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id)).limit(1);
  if (!row) return null;
  return {
    id: row.id,
    status: row.status,
    paymentStatus: row.status === "complete" ? "paid" : "unpaid",
    amountTotal: row.amountTotal,
    currency: row.currency,
    adId: row.adId,
    paymentIntent: row.paymentIntent,
  };
}

/**
 * spec 2 §2 '/post/{id}/boost/success … reading query session_id': fulfils from the
 * provider's view of the session (if the webhook has not done it yet), then says whether the
 * ad runs ('Success! Your ad is running..') or is still being processed.
 */
export async function confirmCheckout(
  ctx: AppContext,
  viewer: Viewer | null,
  input: { postId: string; sessionId: string | null },
): Promise<{ running: boolean }> {
  if (!viewer) throw new AdError("signed-out", AD_MESSAGES.boostRefused);
  if (!input.sessionId || input.sessionId.length > 255) return { running: false };
  const [stored] = await ctx.db
    .select({ userId: checkoutSessions.userId, adId: checkoutSessions.adId })
    .from(checkoutSessions)
    .where(eq(checkoutSessions.id, input.sessionId))
    .limit(1);
  if (!stored || stored.userId !== viewer.id) return { running: false };
  const session = await ctx.payments.retrieveCheckoutSession(input.sessionId);
  if (session) await fulfillCheckout(ctx, session, null);
  if (!stored.adId) return { running: false };
  const [ad] = await ctx.db.select({ status: ads.status }).from(ads).where(eq(ads.id, stored.adId)).limit(1);
  return { running: ad?.status === "active" };
}

// ---------------------------------------------------------------------------
// The built-in test checkout (decision 0270; 404 in production).

export interface TestCheckoutView {
  id: string;
  amountTotal: number;
  days: number;
  status: "open" | "complete" | "expired";
  postId: string | null;
  cancelUrl: string;
  successUrl: string;
}

function requireTestMode(ctx: AppContext): void {
  if (ctx.payments.provider !== "test" || ctx.config.production) {
    throw new AdError("not-found", "Not Found");
  }
}

/** The test checkout page's session: the payer's own, open and not expired. */
export async function getTestCheckout(
  ctx: AppContext,
  viewer: Viewer | null,
  sessionId: string,
): Promise<TestCheckoutView | null> {
  requireTestMode(ctx);
  if (!viewer) throw new AdError("signed-out", AD_MESSAGES.boostRefused);
  const [row] = await ctx.db
    .select({ session: checkoutSessions, postId: ads.postId })
    .from(checkoutSessions)
    .leftJoin(ads, eq(ads.id, checkoutSessions.adId))
    .where(and(eq(checkoutSessions.id, sessionId), eq(checkoutSessions.userId, viewer.id)))
    .limit(1);
  if (!row) return null;
  const expired = row.session.status === "open" && row.session.expiresAt <= ctx.clock.now();
  return {
    id: row.session.id,
    amountTotal: row.session.amountTotal,
    days: row.session.amountTotal / 500,
    status: expired ? "expired" : row.session.status,
    postId: row.postId,
    cancelUrl: row.session.cancelUrl,
    successUrl: row.session.successUrl,
  };
}

function normaliseCard(card: string): string {
  return card.replace(/\D/g, "");
}

/**
 * The test checkout's Pay (docs/research/round-2.md §4): the success card makes a real-shaped, signed
 * `checkout.session.completed` event and sends it through handlePaymentWebhook, exactly as a
 * Stripe delivery would arrive; the declining card is refused ('Your card was declined.').
 */
export async function payTestCheckout(
  ctx: AppContext,
  viewer: Viewer | null,
  input: { sessionId: string; card: string },
): Promise<{ successUrl: string }> {
  const session = await getTestCheckout(ctx, viewer, input.sessionId);
  if (!session) throw new AdError("not-found", AD_MESSAGES.adNotFound);
  if (session.status === "expired") throw new AdError("expired", AD_MESSAGES.checkoutExpired);
  const card = normaliseCard(input.card);
  if (card === normaliseCard(TEST_CARDS.declined)) {
    throw new AdError("payment-failed", AD_MESSAGES.cardDeclined, { field: "card" });
  }
  if (card !== normaliseCard(TEST_CARDS.success)) {
    throw new AdError("invalid-input", AD_MESSAGES.cardInvalid, { field: "card" });
  }
  if (session.status === "open") {
    const [stored] = await ctx.db
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.id, session.id))
      .limit(1);
    const payload = JSON.stringify({
      id: `evt_test_${crypto.randomUUID().replaceAll("-", "")}`,
      object: "event",
      type: "checkout.session.completed",
      created: Math.floor(ctx.clock.now().getTime() / 1000),
      livemode: false,
      data: {
        object: {
          id: session.id,
          object: "checkout.session",
          mode: "payment",
          status: "complete",
          payment_status: "paid",
          amount_total: session.amountTotal,
          currency: "usd",
          client_reference_id: stored?.adId ?? null,
          metadata: { adId: stored?.adId ?? null },
          payment_intent: `pi_test_${crypto.randomUUID().replaceAll("-", "")}`,
        },
      },
    });
    const answer = await handlePaymentWebhook(ctx, payload, ctx.payments.signPayload(payload));
    if (answer.status !== 200) throw new AdError("payment-failed", AD_MESSAGES.failedToActivate);
  }
  return { successUrl: session.successUrl };
}
