import { getFormProps } from "@conform-to/react";
import { Form } from "react-router";
import { NoScriptMessage, useActionToast, useSubmitting } from "~/app/components/ui/action-feedback";
import { Button } from "~/app/components/ui/button";
import { ConformField, useSchemaForm } from "~/app/components/ui/field";
import type { AuthActionData } from "~/app/routes/auth/action.server";
import { verifyCodeSchema } from "~/server/accounts/schemas.shared";

/**
 * The one 'enter the 4-digit code we mailed' form (spec 1 §2 /verify, verify_email,
 * verify_school_email; spec 1 §4 'E-mail OTP'): the code field, Verify, and a button that
 * has a new code mailed. The pages differ in their words and intents only.
 */
export function CodeForm({
  actionData,
  label,
  resendLabel,
  intents,
  narrow = false,
}: {
  actionData: AuthActionData | undefined;
  /** The field's label: 'Verification code' (sign-up) or 'PIN' (settings). */
  label: string;
  resendLabel: string;
  intents: { verify: string; resend: string };
  /** In a settings page the forms keep a field's width rather than the card's. */
  narrow?: boolean;
}) {
  const verifying = useSubmitting(intents.verify);
  const resending = useSubmitting(intents.resend);
  useActionToast(actionData?.toast);
  const [form, fields] = useSchemaForm(verifyCodeSchema, {
    lastResult: actionData?.result,
    validate: "onSubmit",
  });
  const width = narrow ? "max-w-xs" : "";
  return (
    <>
      <NoScriptMessage toast={actionData?.toast} />
      <Form method="post" {...getFormProps(form)} className={`flex flex-col gap-4 ${width}`}>
        <input type="hidden" name="intent" value={intents.verify} />
        <ConformField
          meta={fields.code}
          label={label}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={4}
          pattern="[0-9]*"
          className="[&_input]:text-center [&_input]:text-2xl [&_input]:tracking-[0.5em]"
        />
        <Button type="submit" className="w-full" processing={verifying}>
          Verify
        </Button>
      </Form>
      <Form method="post" className={`mt-3 ${width}`}>
        <Button
          type="submit"
          name="intent"
          value={intents.resend}
          variant="secondary"
          className="w-full"
          processing={resending}
        >
          {resendLabel}
        </Button>
      </Form>
    </>
  );
}
