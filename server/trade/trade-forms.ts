import { z } from "zod";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import { cancelDeal, completeDeal, markSoldTo } from "./deals";
import { acceptOffer } from "./offer-accept";
import { parseDollars, TRADE_MESSAGES } from "./offer-rules.shared";
import { answerOffer, counterOffer, makeOffer } from "./offers";
import { TradeError } from "./trade-errors";

/**
 * The trade's forms as the route receives them (decision 0490: the route passes the fields, the
 * domain parses them): one intent, its fields as sent, one domain call. Each answer says what the
 * toast says and, for a new offer, the conversation to go to.
 */

export const TRADE_INTENTS = [
  "make-offer",
  "counter-offer",
  "accept-offer",
  "decline-offer",
  "withdraw-offer",
  "complete-deal",
  "cancel-deal",
  "mark-sold-to",
] as const;
export type TradeIntent = (typeof TRADE_INTENTS)[number];

const id = z.string().max(64);
const whole = z
  .string()
  .regex(/^\d{1,9}$/)
  .transform(Number);
const fieldsSchema = z.object({
  postId: id.optional(),
  offerId: id.optional(),
  dealId: id.optional(),
  buyerId: id.optional(),
  amount: z.string().max(20).optional(),
  amountCents: whole.optional(),
  version: whole.optional(),
  note: z.string().max(2000).optional(),
  reason: z.string().max(2000).optional(),
});

function cents(amount: string | undefined): number {
  const parsed = parseDollars(amount ?? "");
  if ("error" in parsed) throw new TradeError("invalid-input", parsed.error, "amount");
  return parsed.cents;
}

export async function submitTradeForm(
  ctx: AppContext,
  viewer: Viewer | null,
  intent: TradeIntent,
  fields: Record<string, unknown>,
): Promise<{ message: string; chatId?: string }> {
  const parsed = fieldsSchema.safeParse(fields);
  if (!parsed.success) throw new TradeError("invalid-input", TRADE_MESSAGES.badInput);
  const form = parsed.data;
  const offerId = form.offerId ?? "";
  const dealId = form.dealId ?? "";
  switch (intent) {
    case "make-offer": {
      const made = await makeOffer(ctx, viewer, {
        postId: form.postId ?? "",
        amountCents: cents(form.amount),
        note: form.note,
      });
      return { message: TRADE_MESSAGES.offerSent, chatId: made.chatId };
    }
    case "counter-offer":
      await counterOffer(ctx, viewer, offerId, {
        amountCents: cents(form.amount),
        note: form.note,
        version: form.version,
      });
      return { message: TRADE_MESSAGES.offerCountered };
    case "accept-offer":
      await acceptOffer(ctx, viewer, offerId, { amountCents: form.amountCents, version: form.version });
      return { message: TRADE_MESSAGES.offerAccepted };
    case "decline-offer":
      await answerOffer(ctx, viewer, offerId, "decline");
      return { message: TRADE_MESSAGES.offerDeclined };
    case "withdraw-offer":
      await answerOffer(ctx, viewer, offerId, "withdraw");
      return { message: TRADE_MESSAGES.offerWithdrawn };
    case "complete-deal":
      await completeDeal(ctx, viewer, dealId);
      return { message: TRADE_MESSAGES.dealCompleted };
    case "cancel-deal":
      await cancelDeal(ctx, viewer, dealId, { reason: form.reason });
      return { message: TRADE_MESSAGES.dealCancelled };
    case "mark-sold-to":
      await markSoldTo(ctx, viewer, {
        postId: form.postId ?? "",
        buyerId: !form.buyerId || form.buyerId === "someone-else" ? null : form.buyerId,
      });
      return { message: TRADE_MESSAGES.markedSold };
  }
}
