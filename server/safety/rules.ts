import { sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { type SafetyRuleAction, type SafetyRuleScope, safetyRules } from "../db/schema";
import type { SafetyPattern } from "./matcher";

/**
 * The built-in safety rules (docs/product/safety.md, decision 0652): written by the app at start
 * (`syncBuiltinSafetyRules`), so their patterns and wording stay the product's; a site admin's
 * rules are never touched, and an admin's switching a built-in rule off is kept.
 */

export interface BuiltinRule {
  key: string;
  scope: SafetyRuleScope;
  action: SafetyRuleAction;
  pattern: SafetyPattern;
  message: string;
  countsTowardFlag: boolean;
}

/** spec: the warning card's words for payment asked before the meetup. */
export const PAYMENT_FIRST_WARNING =
  "Asking for payment before you meet is the most common scam. Pay only at the meetup, after you've seen the item.";
/** spec: the nudge before a phone number is sent. */
export const PHONE_NUDGE = "Sharing your number? Keep the chat here until you meet.";

const PAYMENT_APPS = [
  "zelle",
  "venmo",
  "cash app",
  "cashapp",
  "paypal",
  "pay pal",
  "apple pay",
  "apple cash",
  "chime",
  "crypto",
  "bitcoin",
  "btc",
  "ethereum",
  "usdt",
  "usdc",
  "wire",
  "wire transfer",
  "bank transfer",
  "western union",
  "moneygram",
  "e transfer",
  "etransfer",
];

const PAY_FIRST_WORDS = [
  "first",
  "before",
  "beforehand",
  "deposit",
  "hold",
  "holding",
  "upfront",
  "up front",
  "advance",
  "reserve",
  "half now",
];

export const BUILTIN_RULES: readonly BuiltinRule[] = [
  {
    key: "verification-code",
    scope: "both",
    action: "block",
    countsTowardFlag: false,
    message:
      "Not sent: asking for a verification code is how accounts get stolen. Nobody buying or selling needs a code someone else received.",
    pattern: {
      kind: "any",
      of: [
        {
          kind: "terms",
          terms: [
            "google voice",
            "gvoice",
            "verification code",
            "verify code",
            "confirmation code",
            "6 digit code",
            "six digit code",
            "6 digit",
            "six digit",
            "security code",
            "authentication code",
            "one time code",
            "otp",
            "2fa code",
            "login code",
          ],
        },
        {
          kind: "terms",
          terms: ["code", "codes"],
          near: [
            "google",
            "sent you",
            "texted",
            "text you",
            "texting you",
            "read me",
            "tell me",
            "give me",
            "forward",
            "verify",
            "confirm",
            "whats the",
            "what s the",
            "what is the",
          ],
          window: 4,
        },
      ],
    },
  },
  {
    key: "shortener-link",
    scope: "both",
    action: "block",
    countsTowardFlag: false,
    message: "Not sent: links through URL shorteners hide where they lead. Share the full address instead.",
    pattern: { kind: "detector", detector: "shortener" },
  },
  {
    key: "lookalike-link",
    scope: "both",
    action: "block",
    countsTowardFlag: false,
    message: "Not sent: this link imitates the address of a site it isn't.",
    pattern: { kind: "detector", detector: "lookalike" },
  },
  {
    key: "staff-impersonation",
    scope: "both",
    action: "block",
    countsTowardFlag: false,
    message:
      "Not sent: messages can't speak for Campus Buy Sell's staff or support. The site never contacts anyone through a chat.",
    pattern: {
      kind: "any",
      of: [
        {
          kind: "terms",
          terms: [
            "support team",
            "security team",
            "account team",
            "safety team",
            "trust and safety team",
            "verification team",
            "site admin",
            "site administrator",
            "admin team",
            "moderation team",
            "official notice",
          ],
        },
        {
          kind: "terms",
          terms: [
            "support",
            "admin",
            "staff",
            "team",
            "moderator",
            "moderation",
            "security",
            "official",
            "help desk",
            "helpdesk",
          ],
          near: [
            "campus buy sell",
            "campusbuysell",
            "cbs",
            "your account",
            "account will",
            "account has",
            "verify your",
            "suspended",
            "deactivated",
          ],
          window: 5,
        },
      ],
    },
  },
  {
    key: "new-account-link",
    scope: "chat",
    action: "block",
    countsTowardFlag: false,
    message: "Not sent: links can be shared once your account is a day old.",
    pattern: { kind: "detector", detector: "link", accountYoungerThanHours: 24 },
  },
  {
    key: "listing-phone",
    scope: "listing",
    action: "block",
    countsTowardFlag: false,
    message: "Please remove the phone number: buyers reach you through Campus Buy Sell's chat.",
    pattern: { kind: "detector", detector: "phone" },
  },
  {
    key: "listing-email",
    scope: "listing",
    action: "block",
    countsTowardFlag: false,
    message: "Please remove the e-mail address: buyers reach you through Campus Buy Sell's chat.",
    pattern: { kind: "detector", detector: "email" },
  },
  {
    key: "listing-link",
    scope: "listing",
    action: "block",
    countsTowardFlag: false,
    message: "Please remove the link: listings can't contain links.",
    pattern: { kind: "detector", detector: "link" },
  },
  {
    key: "chat-phone",
    scope: "chat",
    action: "nudge",
    countsTowardFlag: false,
    message: PHONE_NUDGE,
    pattern: { kind: "detector", detector: "phone" },
  },
  {
    key: "chat-email",
    scope: "chat",
    action: "nudge",
    countsTowardFlag: false,
    message: "Sharing your e-mail address? Keep the chat here until you meet.",
    pattern: { kind: "detector", detector: "email" },
  },
  {
    key: "payment-first",
    scope: "chat",
    action: "warn",
    countsTowardFlag: true,
    message: PAYMENT_FIRST_WARNING,
    pattern: {
      kind: "any",
      of: [
        { kind: "terms", terms: PAYMENT_APPS, near: PAY_FIRST_WORDS, window: 8 },
        {
          kind: "terms",
          terms: ["friends and family", "friends n family", "friends family", "f&f", "family and friends"],
          near: ["paypal", "pay pal", "send", "pay", "payment"],
          window: 5,
        },
        {
          kind: "terms",
          terms: ["deposit", "down payment", "holding fee", "hold fee", "reservation fee"],
          near: ["send", "sending", "sent", "transfer"],
          window: 5,
        },
        {
          kind: "terms",
          terms: [
            "pay first",
            "payment first",
            "pay upfront",
            "payment upfront",
            "pay up front",
            "pay in advance",
            "payment in advance",
            "prepay",
            "prepayment",
            "send the money first",
            "send money first",
            "send payment first",
            "pay before we meet",
            "pay before meeting",
          ],
        },
      ],
    },
  },
  {
    key: "gift-card",
    scope: "chat",
    action: "warn",
    countsTowardFlag: true,
    message:
      "Nobody buying or selling honestly pays or asks to be paid in gift cards. Pay only at the meetup, after you've seen the item.",
    pattern: {
      kind: "terms",
      terms: [
        "gift card",
        "gift cards",
        "giftcard",
        "giftcards",
        "itunes card",
        "itunes cards",
        "steam card",
        "steam cards",
        "google play card",
        "google play cards",
        "amazon card",
        "amazon cards",
        "ebay card",
        "vanilla card",
        "vanilla visa",
        "razer gold",
        "prepaid card",
      ],
      near: [
        "pay",
        "paying",
        "payment",
        "send",
        "sending",
        "buy",
        "get me",
        "scratch",
        "code",
        "codes",
        "pin",
        "back of",
        "photo",
        "picture",
        "accept",
        "instead",
      ],
      window: 6,
    },
  },
  {
    key: "overpayment",
    scope: "chat",
    action: "warn",
    countsTowardFlag: false,
    message:
      "Paying too much and asking for the difference back is a classic scam: the first payment disappears later. Take the exact price, at the meetup.",
    pattern: {
      kind: "any",
      of: [
        {
          kind: "terms",
          terms: [
            "overpay",
            "overpaid",
            "overpaying",
            "overpayment",
            "sent too much",
            "paid too much",
            "sent extra",
            "cashier check",
            "cashiers check",
            "certified check",
            "money order",
          ],
        },
        {
          kind: "terms",
          terms: ["difference", "extra", "the rest", "balance"],
          near: ["send back", "refund", "return", "give back", "send it back", "pay back"],
          window: 4,
        },
      ],
    },
  },
  {
    key: "shipping-only",
    scope: "chat",
    action: "warn",
    countsTowardFlag: false,
    message:
      "Shipping only, for something on your campus, is a common scam. Meet on campus and see the item before you pay.",
    pattern: {
      kind: "terms",
      terms: [
        "ship",
        "shipping",
        "ships",
        "shipped",
        "mail it",
        "courier",
        "fedex",
        "usps",
        "dhl",
        "mover",
        "movers",
        "delivery agent",
        "shipping company",
        "pickup agent",
      ],
      near: [
        "only",
        "out of town",
        "cant meet",
        "cannot meet",
        "not in town",
        "traveling",
        "travelling",
        "deployed",
        "overseas",
        "relocated",
        "offshore",
        "my agent",
        "my mover",
        "my courier",
      ],
      window: 6,
    },
  },
];

/** Where a built-in rule stands among the others: blocks first, then the order above. */
export const BUILTIN_ORDER: ReadonlyMap<string, number> = new Map(
  BUILTIN_RULES.map((rule, index) => [rule.key, index]),
);

/**
 * Decision 0652: writes the built-in rules at start, one statement: new ones inserted, existing
 * built-in ones given the product's current pattern, scope, action and wording. `enabled` is not
 * rewritten (a site admin may have switched one off), and a site admin's own rules (builtin false,
 * keys of their own) are not touched. A key an admin took first stays theirs.
 */
export async function syncBuiltinSafetyRules(db: Queryable, now: Date): Promise<void> {
  await db
    .insert(safetyRules)
    .values(BUILTIN_RULES.map((rule) => ({ ...rule, builtin: true, createdAt: now, updatedAt: now })))
    .onConflictDoUpdate({
      target: safetyRules.key,
      set: {
        scope: sql`excluded.scope`,
        action: sql`excluded.action`,
        pattern: sql`excluded.pattern`,
        message: sql`excluded.message`,
        countsTowardFlag: sql`excluded.counts_toward_flag`,
        updatedAt: sql`case when (${safetyRules.pattern}, ${safetyRules.message}, ${safetyRules.scope}, ${safetyRules.action})
          is distinct from (excluded.pattern, excluded.message, excluded.scope, excluded.action) then excluded.updated_at else ${safetyRules.updatedAt} end`,
      },
      setWhere: sql`${safetyRules.builtin}`,
    });
}
