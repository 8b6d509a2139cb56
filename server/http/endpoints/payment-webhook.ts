import express, { type Express } from "express";
import { handlePaymentWebhook } from "../../ads/fulfilment";
import type { AppContext } from "../../context";

/** Where Stripe (and the test checkout) deliver events (README: the endpoint to register at Stripe). */
export const PAYMENT_WEBHOOK_PATH = "/webhooks/stripe";

/** Stripe's events are a few kilobytes; nothing bigger is read. */
const WEBHOOK_BODY_LIMIT = "256kb";

/**
 * Decision 0270: the payment webhook, a plain Express route mounted ahead of every body parser
 * and of the form-only guard (server/http/app.ts), because the signature is over the raw bytes
 * (docs/research/round-2.md §4: a JSON parser in front is the classic 'No signatures found'). It answers
 * as soon as fulfilment committed; a bad signature is a 400.
 */
export function mountPaymentWebhook(app: Express, ctx: AppContext): void {
  app.post(
    PAYMENT_WEBHOOK_PATH,
    express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT }),
    async (req, res) => {
      res.setHeader("Cache-Control", "no-store");
      try {
        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const answer = await handlePaymentWebhook(ctx, raw, req.get("stripe-signature") ?? undefined);
        res.status(answer.status).json(answer.body);
      } catch (error) {
        // A database failure: Stripe retries a 500 later, and fulfilment is idempotent.
        ctx.log.error({ err: error }, "payment webhook failed");
        res.status(500).json({ received: false });
      }
    },
  );
}
