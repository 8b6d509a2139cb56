import { getFormProps } from "@conform-to/react";
import { useEffect, useRef } from "react";
import { data, Form } from "react-router";
import { EmailField } from "~/app/components/auth/account-fields";
import { AuthCard, AuthLink } from "~/app/components/auth/auth-card";
import { pageTitle } from "~/app/components/shell/campus";
import type { ShellHandle } from "~/app/components/shell/shell";
import { NoScriptMessage, useActionToast, useSubmitting } from "~/app/components/ui/action-feedback";
import { Button } from "~/app/components/ui/button";
import { useSchemaForm } from "~/app/components/ui/field";
import { campusOriginOf } from "~/app/lib/campus-origin.server";
import { AREA_FAILURES, submitForm } from "~/app/lib/errors.server";
import { readForm } from "~/app/lib/form.server";
import { useHydrated } from "~/app/lib/hydrated";
import type { AuthActionData } from "~/app/routes/auth/action.server";
import { requestPasswordReset } from "~/server/accounts/accounts";
import { ACCOUNT_MESSAGES } from "~/server/accounts/errors.shared";
import { forgotPasswordSchema } from "~/server/accounts/schemas.shared";
import type { Route } from "./+types/forgot-password";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export const handle = { shell: "bare" } satisfies ShellHandle;

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Forgot password", matches[0]?.loaderData.campus) }];
}

export function loader({ request }: Route.LoaderArgs) {
  return { email: new URL(request.url).searchParams.get("email") ?? "" };
}

type ForgotActionData = AuthActionData & { sentTo?: string; userNotFound?: boolean };

export async function action({ request, context }: Route.ActionArgs) {
  const { app, campus } = context;
  return submitForm(
    app,
    await readForm(request),
    forgotPasswordSchema,
    async ({ email }, reply) => {
      const outcome = await requestPasswordReset(app, email, {
        campus,
        campusOrigin: campusOriginOf(request, context),
      });
      if (outcome.status === "not-found") {
        // spec 1 §5: a browser alert 'User not found, try again!' and the field cleared.
        return data<ForgotActionData>({ result: reply({ resetForm: true }), userNotFound: true });
      }
      // spec 1 §8 'Magic link and reset': success 'Email sent.' (okay).
      return data<ForgotActionData>({
        sentTo: outcome.email,
        toast: { message: "Email sent.", type: "okay" },
      });
    },
    { failures: AREA_FAILURES.account },
  );
}

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  const hydrated = useHydrated();
  const submitting = useSubmitting();
  const sentTo =
    actionData && "sentTo" in actionData && typeof actionData.sentTo === "string" ? actionData.sentTo : null;
  const userNotFound = Boolean(actionData && "userNotFound" in actionData && actionData.userNotFound);
  useActionToast(actionData?.toast);
  const [form, fields] = useSchemaForm(forgotPasswordSchema, {
    lastResult: actionData?.result,
    defaultValue: { email: loaderData.email },
  });

  const alerted = useRef<unknown>(null);
  useEffect(() => {
    if (!userNotFound || alerted.current === actionData) return;
    alerted.current = actionData;
    window.alert(ACCOUNT_MESSAGES.resetUserNotFound);
    form.update({ name: fields.email.name, value: "" });
  }, [actionData, userNotFound, form, fields.email.name]);

  if (sentTo) {
    return (
      <AuthCard
        title="Check your email"
        footer={
          <>
            Back to <AuthLink to="/login?method=password">Log In</AuthLink>
          </>
        }
      >
        <div role="status" className="flex flex-col gap-3 text-[15px] text-zinc-700">
          <p>
            We sent a password reset link to <strong className="font-semibold text-zinc-900">{sentTo}</strong>
            .
          </p>
          {/* spec 1 §4: reset e-mails may take 1 to 2 minutes. */}
          <p>Reset emails may take 1 to 2 minutes to arrive. The link works for one hour.</p>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Forgot your password?"
      subtitle="Enter the email you signed up with and we'll send you a link to choose a new password."
      footer={
        <>
          Remembered it? <AuthLink to="/login?method=password">Log In</AuthLink>
        </>
      }
    >
      {userNotFound && !hydrated ? (
        <p
          role="alert"
          className="mb-4 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800 ring-1 ring-red-200"
        >
          {ACCOUNT_MESSAGES.resetUserNotFound}
        </p>
      ) : null}
      <NoScriptMessage toast={actionData?.toast} />
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
        <EmailField meta={fields.email} />
        <Button type="submit" className="w-full" processing={submitting}>
          Send Reset Link
        </Button>
      </Form>
    </AuthCard>
  );
}
