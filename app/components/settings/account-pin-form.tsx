import type { ReactNode } from "react";
import { CodeForm } from "~/app/components/auth/code-form";
import { SettingsPage } from "~/app/components/settings/settings-page";
import type { AccountActionData } from "~/app/routes/settings/account/account-action.server";

/** The 'Enter PIN' pages' two forms: Verify (also a form without an intent) and 'Send a new PIN'. */
export const PIN_INTENTS = { verify: "verify-pin", resend: "resend-pin" };

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
  return (
    <SettingsPage title="Enter PIN" backTo="/settings/account">
      <div className="mb-5 text-[15px] text-zinc-600">
        <p>
          We sent a 4-digit PIN to <strong className="font-semibold break-all text-zinc-900">{sentTo}</strong>
          .
        </p>
        <p className="mt-1">Codes expire after two hours. Emails can take a minute or two to arrive.</p>
      </div>
      <CodeForm
        actionData={actionData}
        label="PIN"
        resendLabel="Send a new PIN"
        intents={PIN_INTENTS}
        narrow
      />
      {children}
    </SettingsPage>
  );
}
