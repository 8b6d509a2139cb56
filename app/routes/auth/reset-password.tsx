import { getFormProps } from "@conform-to/react";
import { Form, Link } from "react-router";
import { PasswordField } from "~/app/components/auth/account-fields";
import { AuthCard, AuthLink } from "~/app/components/auth/auth-card";
import { pageTitle } from "~/app/components/shell/campus";
import type { ShellHandle } from "~/app/components/shell/shell";
import { NoScriptMessage, useActionToast, useSubmitting } from "~/app/components/ui/action-feedback";
import { Button, buttonClass } from "~/app/components/ui/button";
import { useSchemaForm } from "~/app/components/ui/field";
import { AREA_FAILURES, submitForm } from "~/app/lib/errors.server";
import { readForm } from "~/app/lib/form.server";
import { redirectWithToast } from "~/app/lib/toast.server";
import { isPasswordResetTokenValid, resetPassword } from "~/server/accounts/accounts";
import { ACCOUNT_MESSAGES } from "~/server/accounts/errors.shared";
import { resetPasswordSchema } from "~/server/accounts/schemas.shared";
import type { Route } from "./+types/reset-password";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export const handle = { shell: "bare" } satisfies ShellHandle;

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Reset password", matches[0]?.loaderData.campus) }];
}

/** The page the reset mail links to: /reset-password?token=… */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token, valid: await isPasswordResetTokenValid(context.app, token) };
}

export async function action({ request, context }: Route.ActionArgs) {
  return submitForm(
    context.app,
    await readForm(request),
    resetPasswordSchema,
    async (value) => {
      await resetPassword(context.app, context.auth, value);
      // spec 1 §7: after a reset the user continues at /login?method=password.
      return redirectWithToast("/login?method=password", {
        message: "Your password has been reset. Log in with your new password.",
        type: "success",
      });
    },
    { failures: AREA_FAILURES.account, hideFields: ["password", "confirmPassword"] },
  );
}

function InvalidLink() {
  return (
    <AuthCard title="Reset link expired">
      <p role="alert" className="text-[15px] text-zinc-700">
        {ACCOUNT_MESSAGES.resetLinkInvalid} Reset links work once, for one hour.
      </p>
      <Link to="/forgotpassword" className={buttonClass("primary", "mt-6 w-full")}>
        Request a new link
      </Link>
    </AuthCard>
  );
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const submitting = useSubmitting();
  useActionToast(actionData?.toast);
  const [form, fields] = useSchemaForm(resetPasswordSchema, { lastResult: actionData?.result });

  if (!loaderData.valid) return <InvalidLink />;

  return (
    <AuthCard
      title="Choose a new password"
      subtitle="You will be logged out everywhere and can log in with the new password."
      footer={
        <>
          Remembered it? <AuthLink to="/login?method=password">Log In</AuthLink>
        </>
      }
    >
      <NoScriptMessage toast={actionData?.toast} />
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
        <input type="hidden" name={fields.token.name} value={loaderData.token} />
        <PasswordField
          meta={fields.password}
          label="New password"
          autoComplete="new-password"
          hint="At least 6 characters."
        />
        <PasswordField
          meta={fields.confirmPassword}
          label="Re-enter new password"
          autoComplete="new-password"
        />
        <Button type="submit" className="w-full" processing={submitting}>
          Reset Password
        </Button>
      </Form>
    </AuthCard>
  );
}
