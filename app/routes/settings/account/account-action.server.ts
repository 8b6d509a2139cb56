import type { SubmissionResult } from "@conform-to/react";
import type { AppLoadContext } from "react-router";
import type { z } from "zod";
import { AREA_FAILURES, submitForm } from "~/app/lib/errors.server";
import { readForm } from "~/app/lib/form.server";
import type { ToastInput } from "~/app/lib/toast";
import { requireUser } from "~/app/lib/viewer.server";
import type { AuthActionData as AccountActionData } from "~/app/routes/auth/action.server";
import { getAccountOverview } from "~/server/accounts/settings";
import type { AppContext } from "~/server/context";

export type { AccountActionData };

type AccountReply = SubmissionResult<string[]>;

/** spec 1 §8 'Account editing': every saved change says so. */
export const ACCOUNT_UPDATED: ToastInput = { message: "Account Updated!", type: "success" };
/** spec 1 §8 'Account editing': after a code is mailed. */
export { EMAIL_SENT } from "~/app/routes/auth/action.server";

/**
 * The one settings action (decision 0145): the form parsed with its Zod schema (400 with the
 * messages when it does not pass), then `run` (the domain function and the answer: a redirect with
 * a toast, or data); a refusal is answered by the one adapter (decision 0140), on its field when
 * that field is in `inlineFields`, else as an alert.
 */
export async function submitAccountForm<Schema extends z.ZodType, Answer>(
  request: Request,
  app: AppContext,
  schema: Schema,
  run: (
    value: z.output<Schema>,
    reply: (options?: { resetForm?: boolean }) => AccountReply,
  ) => Promise<Answer>,
  options: {
    inlineFields?: readonly string[];
    /** Fields never sent back to the page (passwords). */
    hideFields?: string[];
  } = {},
) {
  return submitForm(app, await readForm(request), schema, run, {
    ...options,
    failures: AREA_FAILURES.accountSettings,
  });
}

/**
 * The loaders of spec 1 §2 /settings/account and its pages: the signed-in user (signed-out
 * visitors go to /) and the account as the settings show it.
 */
export async function requireAccount(args: { request: Request; context: AppLoadContext }) {
  const viewer = await requireUser(args);
  return { viewer, account: await getAccountOverview(args.context.app, viewer.id) };
}
