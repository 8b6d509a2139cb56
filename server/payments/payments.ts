import { randomBytes } from "node:crypto";
import Stripe from "stripe";

/**
 * The payments seam (docs/architecture.md rule 6, decision 0270): Stripe Checkout when
 * STRIPE_SECRET_KEY is set, else the built-in test checkout (never in production). Both
 * create a checkout session, read one back, refund, and verify webhook deliveries signed the
 * way Stripe signs them, so the one fulfilment function (server/ads/fulfilment.ts) runs the
 * same way behind either.
 */

/** A checkout session as fulfilment reads it (Stripe's Checkout Session object, reduced). */
export interface CheckoutSessionView {
  id: string;
  status: "open" | "complete" | "expired";
  paymentStatus: "paid" | "unpaid" | "no_payment_required";
  amountTotal: number | null;
  currency: string | null;
  /** metadata.adId (the ad the session pays for), else client_reference_id. */
  adId: string | null;
  paymentIntent: string | null;
}

/** A webhook event after its signature was checked. */
export interface PaymentEvent {
  id: string;
  type: string;
  /** The event's object: a Checkout Session for the checkout.session.* events. */
  object: Record<string, unknown>;
}

export interface CheckoutInput {
  adId: string;
  days: number;
  /** Cents per day (spec 2 §9: $5). */
  unitAmount: number;
  productName: string;
  /** Absolute; contain `{CHECKOUT_SESSION_ID}`, which the provider fills in. */
  successUrl: string;
  cancelUrl: string;
  /** The campus origin the test checkout page lives on. */
  origin: string;
  expiresAt: Date;
}

export interface Payments {
  readonly provider: "stripe" | "test";
  createCheckoutSession(input: CheckoutInput): Promise<{ id: string; url: string }>;
  /** The provider's view of a session; the test checkout's is kept in the database (readTestSession). */
  retrieveCheckoutSession(id: string): Promise<CheckoutSessionView | null>;
  refund(input: { paymentIntent: string; amount: number; idempotencyKey: string }): Promise<{ id: string }>;
  /** Null when webhooks cannot be verified (Stripe keys without STRIPE_WEBHOOK_SECRET). */
  readonly webhookSecret: string | null;
  /** Checks the Stripe-Signature header against the raw body (5 minutes' tolerance); throws WebhookSignatureError. */
  verifyWebhook(rawBody: Buffer | string, signature: string | undefined): PaymentEvent;
  /** Signs a payload as Stripe would (the test checkout's Pay, and tests). */
  signPayload(payload: string, timestamp?: number): string;
  /**
   * Stripe only (decision 0565): the balance's payments less refunds per UTC day in [since,
   * until), read in at most BALANCE_MAX_PAGES pages; throws when Stripe fails or is too slow.
   */
  balanceTotals?(window: { since: Date; until: Date }): Promise<BalanceTotals>;
}

/** Decision 0565: the provider's side of the ledger, in cents per UTC day (`YYYY-MM-DD`). */
export interface BalanceTotals {
  byDay: Record<string, number>;
  /** Transactions read (of every type). */
  transactions: number;
  /** The page bound was hit: there were more transactions than were read, the sums are short. */
  partial: boolean;
  /** The UTC day of the oldest transaction read (Stripe lists newest first): partial from there back. */
  oldestDay: string | null;
}

/** Decision 0565: at most this many pages of Stripe's largest page, inside one page request. */
export const BALANCE_PAGE_SIZE = 100;
export const BALANCE_MAX_PAGES = 5;
/** The whole read, every page together, before the page gives up on it. */
export const BALANCE_TIMEOUT_MS = 8_000;

/**
 * The balance transactions that move money for our books: charges and payments (gross, before
 * Stripe's fee) and refunds (negative); fees, payouts and adjustments are not ours to compare.
 */
const LEDGER_TYPES = new Set(["charge", "payment", "refund", "payment_refund"]);

function dayOfSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}

/** Sums one page of balance transactions into `byDay` (decision 0565). */
export function addBalanceTransactions(byDay: Record<string, number>, rows: readonly unknown[]): void {
  for (const raw of rows) {
    const row = raw as { type?: unknown; amount?: unknown; created?: unknown };
    if (typeof row.type !== "string" || !LEDGER_TYPES.has(row.type)) continue;
    if (typeof row.amount !== "number" || typeof row.created !== "number") continue;
    const day = dayOfSeconds(row.created);
    byDay[day] = (byDay[day] ?? 0) + row.amount;
  }
}

/** Rejects after `ms` unless `work` settles first; the timer never outlives the race. */
function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** Stripe's default tolerance: a delivery signed more than 5 minutes ago is refused (replays). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookSignatureError";
  }
}

/** Only for its webhook helpers (offline: they never reach the network). */
const offlineStripe = new Stripe("sk_test_offline_signing_only");

function verifier(secret: string | null) {
  return {
    webhookSecret: secret,
    verifyWebhook(rawBody: Buffer | string, signature: string | undefined): PaymentEvent {
      if (!secret) throw new WebhookSignatureError("STRIPE_WEBHOOK_SECRET is not set");
      if (!signature) throw new WebhookSignatureError("No Stripe-Signature header");
      let event: { id: string; type: string; data: { object: unknown } };
      try {
        event = offlineStripe.webhooks.constructEvent(
          rawBody,
          signature,
          secret,
          WEBHOOK_TOLERANCE_SECONDS,
        ) as unknown as typeof event;
      } catch (error) {
        throw new WebhookSignatureError(error instanceof Error ? error.message : "Invalid signature");
      }
      if (typeof event?.id !== "string" || typeof event.type !== "string" || !event.data?.object) {
        throw new WebhookSignatureError("Not an event");
      }
      return { id: event.id, type: event.type, object: event.data.object as Record<string, unknown> };
    },
    signPayload(payload: string, timestamp?: number): string {
      if (!secret) throw new Error("no webhook secret to sign with");
      return offlineStripe.webhooks.generateTestHeaderString({
        payload,
        secret,
        ...(timestamp === undefined ? {} : { timestamp }),
      });
    },
  };
}

/** Reads Stripe's Checkout Session object (from the API or a webhook event) as fulfilment needs it. */
export function toCheckoutSessionView(object: Record<string, unknown>): CheckoutSessionView {
  const metadata = (object.metadata ?? {}) as Record<string, unknown>;
  const intent = object.payment_intent;
  const adId =
    typeof metadata.adId === "string"
      ? metadata.adId
      : typeof object.client_reference_id === "string"
        ? object.client_reference_id
        : null;
  return {
    id: String(object.id ?? ""),
    status: object.status === "complete" || object.status === "expired" ? object.status : "open",
    paymentStatus:
      object.payment_status === "paid" || object.payment_status === "no_payment_required"
        ? object.payment_status
        : "unpaid",
    amountTotal: typeof object.amount_total === "number" ? object.amount_total : null,
    currency: typeof object.currency === "string" ? object.currency : null,
    adId,
    paymentIntent:
      typeof intent === "string"
        ? intent
        : intent && typeof intent === "object" && typeof (intent as { id?: unknown }).id === "string"
          ? (intent as { id: string }).id
          : null,
  };
}

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string | null;
  /** A local stub of the API in tests (the package's host/port/protocol options). */
  host?: string;
  port?: number;
  protocol?: "http" | "https";
}

/** Real Stripe Checkout (spec 2 §7 Checkout; docs/research/round-2.md §4). */
export function createStripePayments(options: StripeOptions): Payments {
  const stripe = new Stripe(options.secretKey, {
    ...(options.host ? { host: options.host } : {}),
    ...(options.port ? { port: options.port } : {}),
    ...(options.protocol ? { protocol: options.protocol } : {}),
    timeout: 20_000,
  });
  return {
    provider: "stripe",
    ...verifier(options.webhookSecret),
    async createCheckoutSession(input) {
      const session = await stripe.checkout.sessions.create(
        {
          mode: "payment",
          line_items: [
            {
              price_data: {
                currency: "usd",
                unit_amount: input.unitAmount,
                product_data: { name: input.productName },
              },
              quantity: input.days,
            },
          ],
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          client_reference_id: input.adId,
          metadata: { adId: input.adId },
          payment_intent_data: { metadata: { adId: input.adId } },
          expires_at: Math.floor(input.expiresAt.getTime() / 1000),
        },
        // One session per ad, however often the request is retried (the package retries twice).
        { idempotencyKey: `ad-${input.adId}` },
      );
      if (!session.url) throw new Error("Stripe returned a session without a url");
      return { id: session.id, url: session.url };
    },
    async retrieveCheckoutSession(id) {
      try {
        const session = await stripe.checkout.sessions.retrieve(id);
        return toCheckoutSessionView(session as unknown as Record<string, unknown>);
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode === 404) return null;
        throw error;
      }
    },
    async refund(input) {
      const refund = await stripe.refunds.create(
        { payment_intent: input.paymentIntent, amount: input.amount },
        { idempotencyKey: input.idempotencyKey },
      );
      return { id: refund.id };
    },
    balanceTotals({ since, until }) {
      const read = async (): Promise<BalanceTotals> => {
        const byDay: Record<string, number> = {};
        let transactions = 0;
        let oldestDay: string | null = null;
        let after: string | undefined;
        for (let pageNo = 0; pageNo < BALANCE_MAX_PAGES; pageNo++) {
          const page = await stripe.balanceTransactions.list(
            {
              created: { gte: Math.floor(since.getTime() / 1000), lt: Math.floor(until.getTime() / 1000) },
              limit: BALANCE_PAGE_SIZE,
              ...(after ? { starting_after: after } : {}),
            },
            // One try per page: a page waits on this, not on the package's retries.
            { timeout: BALANCE_TIMEOUT_MS, maxNetworkRetries: 0 },
          );
          transactions += page.data.length;
          addBalanceTransactions(byDay, page.data);
          const last = page.data.at(-1);
          if (last) oldestDay = dayOfSeconds(last.created);
          if (!page.has_more || !last) return { byDay, transactions, partial: false, oldestDay };
          after = last.id;
        }
        return { byDay, transactions, partial: true, oldestDay };
      };
      return withDeadline(read(), BALANCE_TIMEOUT_MS);
    },
  };
}

/**
 * The built-in test checkout (decision 0270): no card is charged. Sessions live in the
 * checkout_sessions table (written by the ads area), so `retrieveCheckoutSession` is given a
 * reader of that table. The page /checkout/test/{id} signs a `checkout.session.completed`
 * event with `webhookSecret` and hands it to the same webhook handler as Stripe's.
 */
export function createTestPayments(options: {
  webhookSecret: string | null;
  readSession(id: string): Promise<CheckoutSessionView | null>;
}): Payments {
  // A secret of this process when none is configured: only the test checkout signs with it.
  const secret = options.webhookSecret ?? `whsec_test_${randomBytes(24).toString("hex")}`;
  return {
    provider: "test",
    ...verifier(secret),
    async createCheckoutSession(input) {
      const id = `cs_test_${randomBytes(16).toString("hex")}`;
      return { id, url: `${input.origin}/checkout/test/${id}` };
    },
    retrieveCheckoutSession: (id) => options.readSession(id),
    async refund() {
      return { id: `re_test_${randomBytes(12).toString("hex")}` };
    },
  };
}

export { TEST_CARDS } from "./test-cards.shared";
