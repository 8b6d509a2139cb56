import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  BALANCE_MAX_PAGES,
  BALANCE_PAGE_SIZE,
  createStripePayments,
  type Payments,
  toCheckoutSessionView,
} from "./payments";

/**
 * A local stub of the Stripe API (docs/research/round-2.md §4: stripe-mock has no Checkout Sessions): it
 * records the form bodies and headers the package sends, serves fixtures, and honours
 * Idempotency-Key as Stripe does (the package retries with the same key).
 */
interface Recorded {
  method: string;
  path: string;
  body: URLSearchParams;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
}

let server: Server;
let port: number;
let recorded: Recorded[] = [];
let failNext = 0;
/** The stub's balance transactions, newest first as Stripe lists them. */
let balance: { id: string; type: string; amount: number; created: number }[] = [];
const answered = new Map<string, string>();

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    req.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
    });
    req.on("end", () => resolve(text));
  });
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = new URLSearchParams(await readBody(req));
    const idempotencyKey = req.headers["idempotency-key"] as string | undefined;
    recorded.push({
      method: req.method ?? "",
      path: req.url ?? "",
      body,
      idempotencyKey,
      authorization: req.headers.authorization,
    });
    res.setHeader("Content-Type", "application/json");
    if (failNext > 0) {
      failNext--;
      res.statusCode = 500;
      res.end(JSON.stringify({ error: { type: "api_error", message: "try again" } }));
      return;
    }
    const replay = idempotencyKey ? answered.get(idempotencyKey) : undefined;
    if (replay) {
      res.setHeader("Idempotent-Replayed", "true");
      res.end(replay);
      return;
    }
    let answer: unknown;
    if (req.method === "POST" && req.url === "/v1/checkout/sessions") {
      const id = `cs_stub_${recorded.length}`;
      answer = {
        id,
        object: "checkout.session",
        url: `https://checkout.stripe.test/c/pay/${id}`,
        status: "open",
        payment_status: "unpaid",
        amount_total:
          Number(body.get("line_items[0][price_data][unit_amount]")) *
          Number(body.get("line_items[0][quantity]")),
        currency: "usd",
        metadata: { adId: body.get("metadata[adId]") },
      };
    } else if (req.method === "GET" && req.url?.startsWith("/v1/checkout/sessions/cs_paid")) {
      answer = {
        id: "cs_paid",
        object: "checkout.session",
        status: "complete",
        payment_status: "paid",
        amount_total: 1500,
        currency: "usd",
        client_reference_id: "ad-from-reference",
        payment_intent: { id: "pi_expanded", object: "payment_intent" },
        metadata: {},
      };
    } else if (req.method === "GET" && req.url?.startsWith("/v1/checkout/sessions/")) {
      res.statusCode = 404;
      res.end(
        JSON.stringify({ error: { type: "invalid_request_error", message: "No such checkout.session" } }),
      );
      return;
    } else if (req.method === "GET" && req.url?.startsWith("/v1/balance_transactions")) {
      const query = new URL(req.url, "http://stub").searchParams;
      const after = query.get("starting_after");
      const limit = Number(query.get("limit") ?? 10);
      const start = after ? balance.findIndex((row) => row.id === after) + 1 : 0;
      const data = balance
        .slice(start, start + limit)
        .map((row) => ({ ...row, object: "balance_transaction" }));
      answer = {
        object: "list",
        data,
        has_more: start + limit < balance.length,
        url: "/v1/balance_transactions",
      };
    } else if (req.method === "POST" && req.url === "/v1/refunds") {
      answer = { id: `re_stub_${recorded.length}`, object: "refund", amount: Number(body.get("amount")) };
    } else {
      res.statusCode = 404;
      res.end(JSON.stringify({ error: { type: "invalid_request_error", message: "unknown" } }));
      return;
    }
    const text = JSON.stringify(answer);
    if (idempotencyKey) answered.set(idempotencyKey, text);
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

let payments: Payments;
beforeEach(() => {
  recorded = [];
  failNext = 0;
  balance = [];
  answered.clear();
  payments = createStripePayments({
    secretKey: "sk_test_stub",
    webhookSecret: "whsec_stub",
    host: "127.0.0.1",
    port,
    protocol: "http",
  });
});

const input = {
  adId: "7f1c0a4e-5b7e-4c1d-9d59-0c2f8f1f2a10",
  days: 3,
  unitAmount: 500,
  productName: "Boost post (3 days)",
  successUrl: "http://ou.localhost:3000/post/p1/boost/success?session_id={CHECKOUT_SESSION_ID}",
  cancelUrl: "http://ou.localhost:3000/post/p1/boost/cancel?session_id={CHECKOUT_SESSION_ID}",
  origin: "http://ou.localhost:3000",
  expiresAt: new Date("2026-03-02T15:31:00Z"),
};

describe("Stripe Checkout through the payments seam (against a local stub of the API)", () => {
  it("creates a payment-mode usd session for 500 × days with the ad as reference, metadata and idempotency key", async () => {
    const session = await payments.createCheckoutSession(input);
    expect(session.url).toBe("https://checkout.stripe.test/c/pay/cs_stub_1");
    const [request] = recorded;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/v1/checkout/sessions");
    expect(request?.authorization).toBe("Bearer sk_test_stub");
    expect(request?.idempotencyKey).toBe(`ad-${input.adId}`);
    const body = Object.fromEntries(request?.body ?? []);
    expect(body).toMatchObject({
      mode: "payment",
      "line_items[0][price_data][currency]": "usd",
      "line_items[0][price_data][unit_amount]": "500",
      "line_items[0][quantity]": "3",
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      client_reference_id: input.adId,
      "metadata[adId]": input.adId,
      expires_at: String(Math.floor(input.expiresAt.getTime() / 1000)),
    });
  });

  it("retries a failed create with the same idempotency key, so one session results", async () => {
    failNext = 1;
    const session = await payments.createCheckoutSession(input);
    expect(recorded).toHaveLength(2);
    expect(recorded.map((request) => request.idempotencyKey)).toEqual([
      `ad-${input.adId}`,
      `ad-${input.adId}`,
    ]);
    expect(session.id).toBe("cs_stub_2");
  });

  it("reads a session back (expanded payment intent, reference id), and null for an unknown one", async () => {
    expect(await payments.retrieveCheckoutSession("cs_paid")).toEqual({
      id: "cs_paid",
      status: "complete",
      paymentStatus: "paid",
      amountTotal: 1500,
      currency: "usd",
      adId: "ad-from-reference",
      paymentIntent: "pi_expanded",
    });
    expect(await payments.retrieveCheckoutSession("cs_missing")).toBeNull();
  });

  it("refunds part of a payment intent with the refund's own idempotency key", async () => {
    const refund = await payments.refund({
      paymentIntent: "pi_123",
      amount: 1000,
      idempotencyKey: "refund-r1",
    });
    expect(refund.id).toBe("re_stub_1");
    const [request] = recorded;
    expect(request?.path).toBe("/v1/refunds");
    expect(Object.fromEntries(request?.body ?? [])).toEqual({ payment_intent: "pi_123", amount: "1000" });
    expect(request?.idempotencyKey).toBe("refund-r1");
    // Asked again (a retry of the ads job): the same refund, not a second one.
    expect(
      (await payments.refund({ paymentIntent: "pi_123", amount: 1000, idempotencyKey: "refund-r1" })).id,
    ).toBe("re_stub_1");
  });

  it("verifies webhooks with STRIPE_WEBHOOK_SECRET and refuses tampered and stale ones", () => {
    const payload = JSON.stringify({
      id: "evt_1",
      type: "checkout.session.completed",
      data: { object: { id: "cs_1" } },
    });
    const event = payments.verifyWebhook(payload, payments.signPayload(payload));
    expect(event).toEqual({ id: "evt_1", type: "checkout.session.completed", object: { id: "cs_1" } });
    expect(() => payments.verifyWebhook(`${payload} `, payments.signPayload(payload))).toThrow();
    const stale = payments.signPayload(payload, Math.floor(Date.now() / 1000) - 600);
    expect(() => payments.verifyWebhook(payload, stale)).toThrow();
    const unverifiable = createStripePayments({ secretKey: "sk_test_stub", webhookSecret: null });
    expect(() => unverifiable.verifyWebhook(payload, "t=1,v1=00")).toThrow(
      "STRIPE_WEBHOOK_SECRET is not set",
    );
  });

  it("reads Stripe's session object as fulfilment needs it", () => {
    expect(
      toCheckoutSessionView({
        id: "cs_x",
        status: "weird",
        payment_status: "paid",
        amount_total: "5",
        metadata: { adId: "a" },
      }),
    ).toMatchObject({
      status: "open",
      paymentStatus: "paid",
      amountTotal: null,
      adId: "a",
      paymentIntent: null,
    });
  });
});

describe("Stripe's balance for the ledger (decision 0565, against the local stub)", () => {
  const day = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);
  const window = { since: new Date("2026-03-01T00:00:00Z"), until: new Date("2026-03-31T00:00:00Z") };

  it("sums charges less refunds per UTC day, leaving fees and payouts out, within the window", async () => {
    balance = [
      { id: "txn_4", type: "payout", amount: -9000, created: day("2026-03-03T10:00:00Z") },
      { id: "txn_3", type: "refund", amount: -1000, created: day("2026-03-03T09:00:00Z") },
      { id: "txn_2", type: "charge", amount: 1500, created: day("2026-03-02T23:59:00Z") },
      { id: "txn_1", type: "stripe_fee", amount: -30, created: day("2026-03-02T12:00:00Z") },
      { id: "txn_0", type: "payment", amount: 500, created: day("2026-03-02T00:00:00Z") },
    ];
    const totals = await payments.balanceTotals?.(window);
    expect(totals).toEqual({
      byDay: { "2026-03-02": 2000, "2026-03-03": -1000 },
      transactions: 5,
      partial: false,
      oldestDay: "2026-03-02",
    });
    const [request] = recorded;
    const query = new URL(request?.path ?? "", "http://stub").searchParams;
    expect(query.get("limit")).toBe(String(BALANCE_PAGE_SIZE));
    expect(query.get("created[gte]")).toBe(String(day("2026-03-01T00:00:00Z")));
    expect(query.get("created[lt]")).toBe(String(day("2026-03-31T00:00:00Z")));
  });

  it("reads at most the bounded number of pages and says the sums are partial", async () => {
    const count = BALANCE_PAGE_SIZE * BALANCE_MAX_PAGES + 1;
    balance = Array.from({ length: count }, (_, index) => ({
      id: `txn_${index}`,
      type: "charge",
      amount: 100,
      // Newest first, an hour apart, from March 30 back.
      created: day("2026-03-30T23:00:00Z") - index * 3600,
    }));
    const totals = await payments.balanceTotals?.(window);
    expect(recorded).toHaveLength(BALANCE_MAX_PAGES);
    expect(recorded[1]?.path).toContain(`starting_after=txn_${BALANCE_PAGE_SIZE - 1}`);
    expect(totals?.partial).toBe(true);
    expect(totals?.transactions).toBe(BALANCE_PAGE_SIZE * BALANCE_MAX_PAGES);
    expect(totals?.byDay["2026-03-30"]).toBe(2400);
    expect(totals?.oldestDay).toBe("2026-03-10");
  });

  it("throws when Stripe fails, without retrying", async () => {
    failNext = 1;
    await expect(payments.balanceTotals?.(window)).rejects.toThrow();
    expect(recorded).toHaveLength(1);
  });
});
