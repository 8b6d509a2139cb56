import { data } from "react-router";
import {
  AccountFormNote,
  AccountTextLink,
  SettingsForm,
  useAccountForm,
} from "~/app/components/settings/account-form";
import { pageTitle } from "~/app/components/shell/campus";
import { ConformField } from "~/app/components/ui/field";
import { requireUser } from "~/app/lib/viewer.server";
import {
  ACCOUNT_UPDATED,
  type AccountActionData,
  submitAccountForm,
} from "~/app/routes/settings/account/account-action.server";
import { changePasswordSchema, MAX_PASSWORD_LENGTH } from "~/server/accounts/schemas.shared";
import { changePassword } from "~/server/accounts/settings";
import type { Route } from "./+types/password";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Password", matches[0]?.loaderData?.campus) }];
}

const PASSWORD_FIELDS = ["currentPassword", "newPassword", "confirmPassword"] as const;

export async function action(args: Route.ActionArgs) {
  const viewer = await requireUser(args);
  const { request, context } = args;
  return submitAccountForm(
    request,
    context.app,
    changePasswordSchema,
    async (value, reply) => {
      const { headers } = await changePassword(context.app, context.auth, viewer, value, request.headers);
      // The other sessions are ended; this browser gets its fresh session cookie. The form empties.
      return data<AccountActionData>(
        { result: reply({ resetForm: true }), toast: ACCOUNT_UPDATED },
        { headers },
      );
    },
    // Passwords never travel back to the page.
    { inlineFields: PASSWORD_FIELDS, hideFields: [...PASSWORD_FIELDS] },
  );
}

/** spec 1 §2 /settings/account/password, §5 'Password change'; links to /forgotpassword. */
export default function Password({ actionData }: Route.ComponentProps) {
  const account = useAccountForm(changePasswordSchema, {
    saved: { currentPassword: "", newPassword: "", confirmPassword: "" },
    actionData,
    save: { requireChange: false },
  });
  const passwordField = (name: (typeof PASSWORD_FIELDS)[number], label: string, autoComplete: string) => (
    <ConformField
      meta={account.fields[name]}
      label={label}
      type="password"
      autoComplete={autoComplete}
      maxLength={MAX_PASSWORD_LENGTH}
    />
  );
  return (
    <SettingsForm title="Password" account={account}>
      {passwordField("currentPassword", "Current password", "current-password")}
      {passwordField("newPassword", "New password", "new-password")}
      {passwordField("confirmPassword", "Re-enter new password", "new-password")}
      <AccountFormNote>
        At least 6 characters. Changing it logs you out everywhere else.{" "}
        <AccountTextLink to="/forgotpassword">Forgot your password?</AccountTextLink>
      </AccountFormNote>
    </SettingsForm>
  );
}
