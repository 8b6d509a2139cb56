import type { SubmissionResult } from "@conform-to/react";
import { data } from "react-router";
import { z } from "zod";
import { type FailureOptions, failureReply, submitForm } from "~/app/lib/errors.server";
import { readIntent } from "~/app/lib/form.server";
import type { ToastInput } from "~/app/lib/toast";
import { verifyCodeSchema } from "~/server/accounts/schemas.shared";
import type { AppContext } from "~/server/context";

/**
 * What the auth actions answer when they stay on the page; a refusal is answered by the
 * one adapter, app/lib/errors.server.ts (decision 0140).
 */
export interface AuthActionData {
  result?: SubmissionResult<string[]>;
  toast?: ToastInput | null;
}

/** spec 1 §8 'Account editing': 'Email sent' (okay) after a code is mailed. */
export const EMAIL_SENT: ToastInput = { message: "Email sent", type: "okay" };

/**
 * The action of the pages with CodeForm (spec 1 §2 /verify, verify_email, verify_school_email):
 * the resend intent mails a new code ('Email sent'); otherwise the 4-digit code is checked and
 * `verify` answers, a wrong code under its field. Refusals go through the one adapter with the
 * area's `failures`.
 */
export async function answerCodeForm(
  app: AppContext,
  formData: FormData,
  options: {
    intents: { verify: string; resend: string };
    failures: Pick<FailureOptions, "fallback" | "logMessage">;
    resend: () => Promise<unknown>;
    verify: (value: z.output<typeof verifyCodeSchema>) => Promise<Response>;
  },
) {
  const { intents, failures } = options;
  const intent = readIntent(formData, z.enum([intents.verify, intents.resend]).default(intents.verify));
  if (intent === intents.resend) {
    try {
      await options.resend();
      return data<AuthActionData>({ toast: EMAIL_SENT });
    } catch (error) {
      return failureReply(app, error, { ...failures });
    }
  }
  return submitForm(app, formData, verifyCodeSchema, options.verify, { failures, inlineFields: ["code"] });
}
