import type { SubmissionResult } from "@conform-to/react";
import { data } from "react-router";
import { type AuthActionData, toastForAccountError } from "~/app/components/auth/action.server";
import type { ToastInput } from "~/app/lib/toast";
import { isAccountError, SETTINGS_ERRORS } from "~/server/accounts/errors";
import type { AppContext } from "~/server/context";

export type { AuthActionData as AccountActionData };

/** spec 1 §8 'Account editing': every saved change says so. */
export const ACCOUNT_UPDATED: ToastInput = { message: "Account Updated!", type: "success" };
/** spec 1 §8 'Account editing': after a code is mailed. */
export const EMAIL_SENT: ToastInput = { message: "Email sent", type: "okay" };

/**
 * An account settings page's answer to a refusal (spec 1 §8 'Account editing'): a
 * message about one of `inlineFields` goes under that field; any other refusal is a
 * danger toast (phone, gender and birth date show theirs that way, spec 1 §8); anything
 * unexpected is logged and answered with the catalogue's 'Something went wrong'.
 */
export function accountSettingsFailure(
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
  app.log.error({ err: error }, "account settings action failed");
  return data<AuthActionData>(
    { result: reply(), toast: { message: SETTINGS_ERRORS.somethingWentWrong, type: "danger" } },
    { status: 500 },
  );
}
