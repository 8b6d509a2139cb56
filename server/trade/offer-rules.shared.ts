import { z } from "zod";
import { MAX_PRICE_CENTS } from "../posts/listing.shared";

// The trade's offers and deals (decisions 0601–0605, docs/product/the-trade.md): their limits,
// their input schemas and every word a student reads, shared by the server and the browser
// (no server imports).

/** Decision 0601: an offer is open this long; past it, it reads Expired whatever any job did. */
export const OFFER_TTL_MS = 24 * 60 * 60 * 1000;
/** Decision 0601: the reminder goes this long before the expiry. */
export const OFFER_REMINDER_BEFORE_MS = 2 * 60 * 60 * 1000;
/** Decision 0601: offers a buyer may make on one listing in a day (their counters included). */
export const OFFERS_PER_DAY = 3;
export const OFFER_NOTE_MAX = 500;
export const CANCEL_REASON_MAX = 500;

/** The states a card shows; 'expired' also when a pending offer's time has run out unseen. */
export const OFFER_STATE_LABELS = {
  pending: "Pending",
  countered: "Countered",
  accepted: "Accepted",
  declined: "Declined",
  withdrawn: "Withdrawn",
  expired: "Expired",
  closed: "No longer available",
} as const;
export type OfferDisplayState = keyof typeof OFFER_STATE_LABELS;

export const DEAL_STATE_LABELS = { active: "Reserved", completed: "Sold", cancelled: "Cancelled" } as const;

/** Decision 0605: the first messages a conversation opened from a listing offers. */
export const QUICK_STARTS = [
  "Is this still available?",
  "Is the price negotiable?",
  "When can we meet?",
] as const;

export const TRADE_MESSAGES = {
  makeOffer: "Make offer",
  offersHeading: (count: number) => `Offers (${count})`,
  markSoldTo: "Mark sold to…",
  someoneElse: "Someone else",
  gotIt: "I got it",
  markSold: "Mark sold",
  cancelDeal: "Cancel deal",
  accept: "Accept",
  counter: "Counter",
  decline: "Decline",
  withdraw: "Withdraw",
  offerLimit: "You've reached the offer limit for this listing",
  offerChanged: "This offer changed",
  noLongerAvailable: "No longer available",
  badAmount: "Enter an amount in dollars, like 40 or 12.50.",
  amountTooLow: "An offer must be more than $0.",
  amountOverPrice: "An offer can't be more than the price.",
  noteTooLong: `A note can be up to ${OFFER_NOTE_MAX} characters.`,
  reasonRequired: "Tell them why you're cancelling.",
  reasonTooLong: `A reason can be up to ${CANCEL_REASON_MAX} characters.`,
  badInput: "This form could not be read. Please reload the page and try again.",
  notFound: "This offer doesn't exist.",
  dealNotFound: "This deal doesn't exist.",
  listingGone: "This listing is no longer available.",
  noOffersHere: "This listing doesn't take offers.",
  ownListing: "You can't make an offer on your own listing.",
  ownOffer: "You can't accept your own offer.",
  notYourTurn: "It's their turn to answer this offer.",
  alreadyPending: "You already have an offer waiting on this listing. Withdraw it or wait for an answer.",
  blocked: "You can't make offers to this person.",
  notAvailable: "This listing isn't available.",
  activeDeal: "This listing is reserved in a deal. Finish or cancel the deal first.",
  notAPerson: "Choose someone who messaged you about this listing.",
  deletionBlocked:
    "You have a deal in progress. Mark it sold, confirm you got it, or cancel it before deleting your account.",
  offerSent: "Offer sent.",
  offerAccepted: "Offer accepted. The listing is reserved for you both.",
  offerCountered: "Counteroffer sent.",
  offerDeclined: "Offer declined.",
  offerWithdrawn: "Offer withdrawn.",
  dealCompleted: "Marked as sold.",
  dealCancelled: "Deal cancelled. The listing is available again.",
  markedSold: "Marked as sold.",
  timeLeft: (ms: number) => {
    const minutes = Math.max(1, Math.ceil(ms / 60_000));
    if (minutes < 60) return `${minutes} min left`;
    return `${Math.floor(minutes / 60)} h left`;
  },
  offerPreview: (amount: string) => `Offer: ${amount}`,
} as const;

/** Decision 0602: the system lines a conversation shows, by the event stored on the message. */
export const SYSTEM_LINES = {
  "offer-closed": "This listing was reserved for someone else. Your offer is no longer available.",
  "listing-closed": "This listing changed, so its offers are no longer available.",
  "deal-started": "Offer accepted: the listing is reserved for this deal.",
  "deal-completed": "The deal is done: the listing is sold.",
  "deal-cancelled": "The deal was cancelled: the listing is available again.",
} as const;
export type SystemLineEvent = keyof typeof SYSTEM_LINES;

export function systemLineText(event: string): string | null {
  return (SYSTEM_LINES as Readonly<Record<string, string>>)[event] ?? null;
}

/**
 * Decision 0601: an amount in cents as a domain function receives it: a whole number above 0 and
 * within the price cap (the listing's price is checked against the row). Anything else (NaN, a
 * fraction of a cent, a string) is the one message.
 */
export const amountCentsSchema = z
  .number({ error: TRADE_MESSAGES.badAmount })
  .refine((value) => Number.isSafeInteger(value), TRADE_MESSAGES.badAmount)
  .refine((value) => value > 0, TRADE_MESSAGES.amountTooLow)
  .refine((value) => value <= MAX_PRICE_CENTS, TRADE_MESSAGES.amountOverPrice);

/** A dollar amount as typed ('45', '$45', '12.50') in cents; a message when it is not one. */
export function parseDollars(input: unknown): { cents: number } | { error: string } {
  if (typeof input !== "string") return { error: TRADE_MESSAGES.badAmount };
  const match = /^\$?\s*(\d{1,7})(?:\.(\d{1,2}))?$/.exec(input.trim().replaceAll(",", ""));
  if (!match?.[1]) return { error: TRADE_MESSAGES.badAmount };
  const cents = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  if (cents <= 0) return { error: TRADE_MESSAGES.amountTooLow };
  if (cents > MAX_PRICE_CENTS) return { error: TRADE_MESSAGES.amountOverPrice };
  return { cents };
}

export const offerNoteSchema = z
  .string()
  .max(OFFER_NOTE_MAX, TRADE_MESSAGES.noteTooLong)
  .transform((note) => note.trim())
  .optional();

/** The offer dialog's form (and the counter's): dollars as typed, an optional note. */
export const offerFormSchema = z.object({
  amount: z.string({ error: TRADE_MESSAGES.badAmount }).max(20, TRADE_MESSAGES.badAmount),
  note: offerNoteSchema,
});

export const cancelReasonSchema = z
  .string({ error: TRADE_MESSAGES.reasonRequired })
  .transform((reason) => reason.trim())
  .pipe(
    z.string().min(1, TRADE_MESSAGES.reasonRequired).max(CANCEL_REASON_MAX, TRADE_MESSAGES.reasonTooLong),
  );

/** What a card shows for an offer at `now`: a pending offer past its time is Expired. */
export function offerDisplayState(offer: { state: string; expiresAt: Date }, now: Date): OfferDisplayState {
  if (offer.state === "pending" && offer.expiresAt.getTime() <= now.getTime()) return "expired";
  return offer.state as OfferDisplayState;
}

/**
 * Decision 0601, mirrored in the browser: whether 'Make offer' shows on a listing (the server
 * checks again, with blocks): someone else's selling listing with a price, not Firm, Available.
 */
export function offersOpen(
  listing: { priceCents: number | null; priceTerms: string | null; kind: string; status: string },
  own: boolean,
): boolean {
  return (
    !own &&
    listing.kind === "selling" &&
    listing.priceCents !== null &&
    listing.priceCents > 0 &&
    listing.priceTerms !== "firm" &&
    listing.status === "available"
  );
}

/** Cents as the offer field shows them: '40', '12.50'. */
export function centsToDollarsField(cents: number): string {
  return cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2);
}
