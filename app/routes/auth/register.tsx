import { getFormProps } from "@conform-to/react";
import { useId } from "react";
import { Form, redirect } from "react-router";
import { z } from "zod";
import { EmailField, PasswordField } from "~/app/components/auth/account-fields";
import { AuthCard, AuthLink } from "~/app/components/auth/auth-card";
import { GoogleSignInOr } from "~/app/components/auth/google-button";
import { signUpBlockedReason } from "~/app/components/auth/sign-up-reason";
import { useSaveEnabled } from "~/app/components/settings/account-form";
import { pageTitle } from "~/app/components/shell/campus";
import type { ShellHandle } from "~/app/components/shell/shell";
import { NoScriptMessage, useActionToast, useSubmitting } from "~/app/components/ui/action-feedback";
import { Button } from "~/app/components/ui/button";
import { ConformField, useSchemaForm } from "~/app/components/ui/field";
import { AREA_FAILURES, submitForm } from "~/app/lib/errors.server";
import { readForm, readIntent } from "~/app/lib/form.server";
import { resetOnceRedirects } from "~/app/lib/verification-redirect.server";
import { requireSignedOut } from "~/app/lib/viewer.server";
import type { AuthActionData } from "~/app/routes/auth/action.server";
import { signInMethod, submitLinkForm } from "~/app/routes/auth/magic-link.server";
import { registerUser } from "~/server/accounts/accounts";
import { ACCOUNT_MESSAGES } from "~/server/accounts/errors.shared";
import { requestSignUpLink } from "~/server/accounts/magic-link";
import {
  MAX_FULL_NAME_LENGTH,
  type RegisterByLinkInput,
  registerByLinkSchema,
  registerSchema,
} from "~/server/accounts/schemas.shared";
import type { Route } from "./+types/register";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export const handle = { shell: "bare" } satisfies ShellHandle;

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Sign Up", matches[0]?.loaderData.campus) }];
}

/**
 * spec 1 §2 /register; signed-in users have an account already. `method=noPassword` signs
 * up by e-mail link (spec 1 §4 'Magic link'); `redirect=true` reports a failed sign-up link.
 */
export async function loader(args: Route.LoaderArgs) {
  await requireSignedOut(args);
  return signInMethod(args.request);
}

/** The page's two forms: sign up with a password (a form without an intent) or by a mailed link. */
const RegisterIntent = z.enum(["create-account", "send-link"]).default("create-account");

export async function action(args: Route.ActionArgs) {
  const { request, context } = args;
  const formData = await readForm(request);
  if (readIntent(formData, RegisterIntent) === "send-link") {
    return submitLinkForm(
      args,
      formData,
      registerByLinkSchema,
      (value, where) =>
        requestSignUpLink(context.app, context.auth, value, { ...where, clientIp: context.clientIp }),
      ["fullName", "email"],
    );
  }
  return submitForm(
    context.app,
    formData,
    registerSchema,
    async (value) => {
      const signedIn = await registerUser(context.app, context.auth, value, {
        campusId: context.campus.id,
        clientIp: context.clientIp,
        headers: request.headers,
      });
      // spec 1 §4: e-mail sign-up goes on to /verify, where the mailed code is entered.
      return redirect("/verify", { headers: await resetOnceRedirects(signedIn.headers) });
    },
    { failures: AREA_FAILURES.account, inlineFields: ["fullName", "password"], hideFields: ["password"] },
  );
}

/**
 * spec 1 §5: the button enables once every field is filled and the terms are ticked (a ticked box
 * sends "on", an unticked one nothing). Nothing is saved to compare with: every field must hold something.
 */
const REQUIRED_BY_LINK = { fullName: "", email: "", terms: "" };
const REQUIRED_WITH_PASSWORD = { ...REQUIRED_BY_LINK, password: "" };

function RegisterForm({ byLink, actionData }: { byLink: boolean; actionData: AuthActionData | undefined }) {
  const submitting = useSubmitting();
  // Reads the form after every render in a layout effect: what the student typed (or the browser
  // restored or autofilled) before the page's script ran counts from the first moment.
  const submit = useSaveEnabled(byLink ? REQUIRED_BY_LINK : REQUIRED_WITH_PASSWORD, { requireChange: false });
  // One set of fields for both: the link form simply has no password.
  const schema: z.ZodType<unknown, RegisterByLinkInput & { password?: string }> = byLink
    ? registerByLinkSchema
    : registerSchema;
  const [form, fields] = useSchemaForm(schema, {
    lastResult: actionData?.result,
  });
  // Spec 1 §5 'Register': why the button is off, next to it, read with it and announced as it changes.
  const reasonId = useId();
  const reason = submit.disabled ? signUpBlockedReason(submit.empty, byLink) : null;

  return (
    <Form
      method="post"
      {...getFormProps(form)}
      ref={submit.formRef}
      onChange={submit.onChange}
      className="flex flex-col gap-4"
    >
      {byLink ? <input type="hidden" name="intent" value="send-link" /> : null}
      <ConformField
        meta={fields.fullName}
        label="Full name"
        autoComplete="name"
        maxLength={MAX_FULL_NAME_LENGTH}
      />
      <EmailField meta={fields.email} />
      {byLink ? null : (
        <PasswordField
          meta={fields.password}
          label="Password"
          autoComplete="new-password"
          hint="At least 6 characters."
        />
      )}
      <div className="flex flex-col gap-1">
        <div className="flex items-start gap-3">
          <input
            type="checkbox"
            id={fields.terms.id}
            name={fields.terms.name}
            key={fields.terms.key}
            defaultChecked={fields.terms.initialValue === "on"}
            aria-invalid={fields.terms.errors ? true : undefined}
            aria-describedby={fields.terms.errors ? `${fields.terms.id}-error` : undefined}
            className="mt-0.5 size-5 shrink-0 accent-brand-600"
          />
          <label htmlFor={fields.terms.id} className="text-sm text-zinc-700">
            I agree to the{" "}
            <a
              href="/settings/terms"
              target="_blank"
              rel="noreferrer"
              className="font-semibold text-brand-600 underline"
            >
              Terms of Service
            </a>{" "}
            and{" "}
            <a
              href="/settings/privacy"
              target="_blank"
              rel="noreferrer"
              className="font-semibold text-brand-600 underline"
            >
              Privacy Policy
            </a>
          </label>
        </div>
        {fields.terms.errors ? (
          <p id={`${fields.terms.id}-error`} className="text-sm text-red-600">
            {fields.terms.errors[0]}
          </p>
        ) : null}
      </div>
      <div className="mt-2">
        <Button
          type="submit"
          className="w-full"
          processing={submitting}
          // Before JavaScript runs it stays enabled and the server checks the same.
          disabled={submit.disabled}
          aria-describedby={reason ? reasonId : undefined}
        >
          {byLink ? "Send Link" : "Sign Up"}
        </Button>
        {/* Always in the page, so screen readers announce the reason's changes (a live region added
            with its text is often not read). */}
        <p id={reasonId} aria-live="polite" className="pt-2 text-center text-sm text-zinc-600 empty:p-0">
          {reason}
        </p>
      </div>
    </Form>
  );
}

export default function Register({ loaderData, actionData }: Route.ComponentProps) {
  const { byLink, failedLink } = loaderData;
  useActionToast(actionData?.toast);
  return (
    <AuthCard
      title="Create your account"
      subtitle={
        byLink
          ? "No password needed: we'll email you a link that finishes signing you up."
          : "Use your email address; you verify it with a code next."
      }
      footer={
        <div className="flex flex-col gap-2">
          <p>
            Already have an account? <AuthLink to="/login">Log In</AuthLink>
          </p>
          <p>
            {byLink ? (
              <AuthLink to="/register">Sign up with a password</AuthLink>
            ) : (
              <AuthLink to="/register?method=noPassword">Sign up with an email link</AuthLink>
            )}
          </p>
        </div>
      }
    >
      {failedLink ? (
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
      <RegisterForm key={byLink ? "link" : "password"} byLink={byLink} actionData={actionData} />
    </AuthCard>
  );
}
