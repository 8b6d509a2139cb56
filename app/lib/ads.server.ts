import { data } from "react-router";
import { AD_MESSAGES } from "~/server/ads/errors";
import type { AppContext } from "~/server/context";
import { describeFailure } from "~/server/errors";
import type { ToastInput } from "./toast";

/**
 * Decision 0465: the redirects out of the boost form, the checkout and the payment
 * return pages replace the browser's history entry (React Router's `X-Remix-Replace`, what its
 * `replace()` sets), so the browser's own Back never reopens a finished checkout. Without
 * JavaScript the header is ignored, and a finished checkout's page redirects onwards anyway.
 */
export const REPLACE_HISTORY = { headers: { "X-Remix-Replace": "true" } } satisfies ResponseInit;

/** What an ads action answers when refused: the message under its field, or a toast. */
export interface AdFailureData {
  ok: false;
  intent?: string;
  field: string | null;
  message: string;
  toast: ToastInput | null;
}

/**
 * The ads pages' side of the one adapter (decision 0140, server/errors.ts describeFailure):
 * a refusal about one field answers under that field (the boost form's spec 2 §5 messages),
 * any other as a toast of its alert type; anything unexpected is logged and answered with
 * spec 2 §8 'Something went wrong'.
 */
export function adFailureReply(app: AppContext, error: unknown, intent?: string) {
  const failure = describeFailure(error, AD_MESSAGES.somethingWentWrong);
  if (!failure.error) app.log.error({ err: error }, "ads action failed");
  const field = failure.field ?? null;
  return data<AdFailureData>(
    {
      ok: false,
      ...(intent ? { intent } : {}),
      field,
      message: failure.message,
      toast: field ? null : { message: failure.message, type: failure.alertType },
    },
    { status: failure.status },
  );
}
