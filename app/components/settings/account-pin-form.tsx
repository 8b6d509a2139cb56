import { getFormProps } from "@conform-to/react";
import type { ReactNode } from "react";
import { Form } from "react-router";
import { NoScriptMessage, useActionToast, useSubmitting } from "~/app/components/auth/action-feedback";
import { SettingsPage } from "~/app/components/settings/settings-page";
import { Button } from "~/app/components/ui/button";
import { ConformField, useSchemaForm } from "~/app/components/ui/field";
import type { AccountActionData } from "~/app/routes/settings/account/account-action.server";
import { pinSchema } from "~/server/accounts/schemas";

/**
 * The 'Enter PIN' screens (spec 1 §2 verify_email, verify_school_email): a 4-digit PIN,
 * Verify, and a way to have a new one mailed. Intents: 'verify-pin', 'resend-pin'.
 */
export function AccountPinForm({
  sentTo,
  actionData,
  children,
}: {
  sentTo: string;
  actionData: AccountActionData | undefined;
  children?: ReactNode;
}) {
  const verifying = useSubmitting("verify-pin");
  const resending = useSubmitting("resend-pin");
  useActionToast(actionData?.toast);
  const [form, fields] = useSchemaForm(pinSchema, { lastResult: actionData?.result, validate: "onSubmit" });

  return (
    <SettingsPage title="Enter PIN" backTo="/settings/account">
      <div className="mb-5 text-[15px] text-zinc-600">
        <p>
          We sent a 4-digit PIN to <strong className="font-semibold break-all text-zinc-900">{sentTo}</strong>
          .
        </p>
        <p className="mt-1">Codes expire after two hours. Emails can take a minute or two to arrive.</p>
      </div>
      <NoScriptMessage toast={actionData?.toast} />
      <Form method="post" {...getFormProps(form)} className="flex max-w-xs flex-col gap-4">
        <input type="hidden" name="intent" value="verify-pin" />
        <ConformField
          meta={fields.code}
          label="PIN"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={4}
          pattern="[0-9]*"
          className="[&_input]:text-center [&_input]:text-2xl [&_input]:tracking-[0.5em]"
        />
        <Button type="submit" processing={verifying}>
          Verify
        </Button>
      </Form>
      <Form method="post" className="mt-3 max-w-xs">
        <Button
          type="submit"
          name="intent"
          value="resend-pin"
          variant="secondary"
          className="w-full"
          processing={resending}
        >
          Send a new PIN
        </Button>
      </Form>
      {children}
    </SettingsPage>
  );
}
