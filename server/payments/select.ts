import { readStoredCheckoutSession } from "../ads/fulfilment";
import type { Config } from "../config";
import type { Db } from "../db/client";
import { createStripePayments, createTestPayments, type Payments } from "./payments";

/**
 * docs/contract.md STRIPE_SECRET_KEY / STRIPE_WEBHOOK_SECRET (decision 0270): with a secret key,
 * real Stripe Checkout; without, the built-in test checkout, whose webhook secret is
 * STRIPE_WEBHOOK_SECRET or one generated at start. Production without a key still builds the
 * test seam, but its page answers 404 there (server/ads/fulfilment.ts requireTestMode).
 */
export function createPayments(config: Config, db: Db): Payments {
  if (config.stripeSecretKey) {
    return createStripePayments({
      secretKey: config.stripeSecretKey,
      webhookSecret: config.stripeWebhookSecret,
    });
  }
  return createTestPayments({
    webhookSecret: config.stripeWebhookSecret,
    readSession: (id) => readStoredCheckoutSession({ db }, id),
  });
}
