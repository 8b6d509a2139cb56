import type { SubmissionResult } from "@conform-to/react";
import { data } from "react-router";
import type { ToastInput } from "~/app/lib/toast";
import { LOCKOUT_TOAST_MS } from "~/app/lib/toast";
import { ACCOUNT_MESSAGES, type AccountError, isAccountError } from "~/server/accounts/errors";
import type { AppContext } from "~/server/context";

/** What the auth actions answer when they stay on the page. */
export interface AuthActionData {
  result?: SubmissionResult<string[]>;
  toast?: ToastInput | null;
}

/** spec 1 §8: errors show as danger toasts; the lockout one for 7800 ms. */
export function toastForAccountError(error: AccountError): ToastInput {
  return {
    message: error.message,
    type: "danger",
    durationMs: error.code === "too-many-requests" ? LOCKOUT_TOAST_MS : undefined,
  };
}

/**
 * Turns a domain function's refusal into the page's answer: a message about one
 * field goes under that field; any other refusal is a toast; anything unexpected
 * is logged and shown as the catalogue's 'Something went wrong. Try again.'.
 */
export function accountFailure(
  app: AppContext,
  error: unknown,
  reply: (options?: { fieldErrors?: Record<string, string[]> }) => SubmissionResult<string[]>,
  inlineFields: readonly string[] = [],
) {
  if (isAccountError(error)) {
    if (error.field && inlineFields.includes(error.field)) {
      return data<AuthActionData>(
        { result: reply({ fieldErrors: { [error.field]: [error.message] } }) },
        { status: 400 },
      );
    }
    return data<AuthActionData>({ result: reply(), toast: toastForAccountError(error) }, { status: 400 });
  }
  app.log.error({ err: error }, "account action failed");
  return data<AuthActionData>(
    { result: reply(), toast: { message: ACCOUNT_MESSAGES.somethingWentWrong, type: "danger" } },
    { status: 500 },
  );
}
