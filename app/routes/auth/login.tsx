import { getFormProps } from "@conform-to/react";
import { Form, redirect } from "react-router";
import { z } from "zod";
import { EmailField, PasswordField } from "~/app/components/auth/account-fields";
import { AuthCard, AuthLink } from "~/app/components/auth/auth-card";
import { GoogleSignInOr } from "~/app/components/auth/google-button";
import { campusBrand, pageTitle } from "~/app/components/shell/campus";
import type { ShellHandle } from "~/app/components/shell/shell";
import { NoScriptMessage, useActionToast, useSubmitting } from "~/app/components/ui/action-feedback";
import { Button } from "~/app/components/ui/button";
import { useSchemaForm } from "~/app/components/ui/field";
import { AREA_FAILURES, submitForm } from "~/app/lib/errors.server";
import { readForm, readIntent } from "~/app/lib/form.server";
import { useRootData } from "~/app/lib/root-data";
import { resetOnceRedirects } from "~/app/lib/verification-redirect.server";
import { requireSignedOut } from "~/app/lib/viewer.server";
import type { AuthActionData } from "~/app/routes/auth/action.server";
import { signInMethod, submitLinkForm } from "~/app/routes/auth/magic-link.server";
import { signIn } from "~/server/accounts/accounts";
import { ACCOUNT_MESSAGES } from "~/server/accounts/errors.shared";
import { requestSignInLink } from "~/server/accounts/magic-link";
import { loginSchema, sendLinkSchema } from "~/server/accounts/schemas.shared";
import type { Route } from "./+types/login";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export const handle = { shell: "bare" } satisfies ShellHandle;

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Log In", matches[0]?.loaderData.campus) }];
}

/** spec 1 §2 /login: method=password | noPassword, email prefills, redirect=true reports a failed link. */
export async function loader(args: Route.LoaderArgs) {
  await requireSignedOut(args);
  const { byLink, failedLink } = signInMethod(args.request);
  return {
    method: byLink ? ("noPassword" as const) : ("password" as const),
    email: new URL(args.request.url).searchParams.get("email") ?? "",
    failedLink,
  };
}

/** The page's two forms: the password form (also what a form without an intent means) and the link form. */
const LoginIntent = z.enum(["log-in", "send-link"]).default("log-in");

export async function action(args: Route.ActionArgs) {
  const { request, context } = args;
  const formData = await readForm(request);
  if (readIntent(formData, LoginIntent) === "send-link") {
    return submitLinkForm(args, formData, sendLinkSchema, (value, where) =>
      requestSignInLink(context.app, context.auth, value, where),
    );
  }
  return submitForm(
    context.app,
    formData,
    loginSchema,
    async (value) => {
      const signedIn = await signIn(context.app, context.auth, value, {
        clientIp: context.clientIp,
        headers: request.headers,
      });
      const headers = await resetOnceRedirects(signedIn.headers);
      // spec 1 §6: a signed-in user whose e-mail is not verified is sent to /verify.
      return redirect(signedIn.verified ? "/home" : "/verify", { headers });
    },
    { failures: AREA_FAILURES.account, hideFields: ["password"] },
  );
}

/**
 * The page's sign-in form (spec 1 §2 /login): e-mail and password ('Log In', intent 'log-in'),
 * or, with `method=noPassword`, the e-mail alone for a mailed link ('Send Link', intent 'send-link').
 */
function SignInForm({
  byLink,
  email,
  actionData,
}: {
  byLink: boolean;
  email: string;
  actionData: AuthActionData | undefined;
}) {
  const intent = byLink ? "send-link" : "log-in";
  const submitting = useSubmitting(intent);
  const schema: z.ZodType<unknown, { email: string; password?: string }> = byLink
    ? sendLinkSchema
    : loginSchema;
  const [form, fields] = useSchemaForm(schema, { lastResult: actionData?.result, defaultValue: { email } });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
      <input type="hidden" name="intent" value={intent} />
      <EmailField meta={fields.email} />
      {byLink ? null : (
        <>
          <PasswordField meta={fields.password} label="Password" autoComplete="current-password" />
          <div className="-mt-1 text-right text-sm">
            <AuthLink to="/forgotpassword">Forgot password?</AuthLink>
          </div>
        </>
      )}
      <Button type="submit" className="w-full" processing={submitting}>
        {byLink ? "Send Link" : "Log In"}
      </Button>
    </Form>
  );
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { campus } = useRootData();
  useActionToast(actionData?.toast);
  const noPassword = loaderData.method === "noPassword";
  return (
    <AuthCard
      title={`Log in to ${campusBrand(campus)}`}
      subtitle={noPassword ? "Enter your email and we'll send you a link to log in." : undefined}
      footer={
        <div className="flex flex-col gap-2">
          <p>
            New here? <AuthLink to="/register">Sign up</AuthLink>
          </p>
          <p>
            {noPassword ? (
              <AuthLink to="/login?method=password">Log in with a password</AuthLink>
            ) : (
              <AuthLink to="/login?method=noPassword">Log in with an email link</AuthLink>
            )}
          </p>
        </div>
      }
    >
      {loaderData.failedLink ? (
        <p
          role="alert"
          className="mb-4 rounded-lg bg-red-50 px-3 py-2 text-sm font-medium text-red-800 ring-1 ring-red-200"
        >
          {ACCOUNT_MESSAGES.magicLinkFailed}
        </p>
      ) : null}
      <NoScriptMessage toast={actionData?.toast} />
      {/* Decision 0061: every sign-in method wherever a user signs in. */}
      <GoogleSignInOr />
      <SignInForm
        key={loaderData.method}
        byLink={noPassword}
        email={loaderData.email}
        actionData={actionData}
      />
    </AuthCard>
  );
}
