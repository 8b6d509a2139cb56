import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { NoScriptMessage, useActionToast, useSubmitting } from "~/app/components/auth/action-feedback";
import { AccountFormNote, AccountTextLink, useSaveEnabled } from "~/app/components/settings/account-form";
import { SettingsPage } from "~/app/components/settings/settings-page";
import { pageTitle } from "~/app/components/shell/campus";
import { Button } from "~/app/components/ui/button";
import { Field } from "~/app/components/ui/field";
import { AREA_FAILURES, failureReply } from "~/app/lib/errors.server";
import { readForm } from "~/app/lib/form.server";
import { requireUser } from "~/app/lib/viewer.server";
import { ACCOUNT_UPDATED, type AccountActionData } from "~/app/routes/settings/account/account-action.server";
import { changePasswordSchema, MAX_PASSWORD_LENGTH } from "~/server/accounts/schemas";
import { changePassword } from "~/server/accounts/settings";
import type { Route } from "./+types/password";

// Issue 10 §1, decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Password", matches[0]?.loaderData?.campus) }];
}

const PASSWORD_FIELDS = ["currentPassword", "newPassword", "confirmPassword"] as const;

export async function action(args: Route.ActionArgs) {
  const viewer = await requireUser(args);
  const { request, context } = args;
  const submission = parseWithZod(await readForm(request), { schema: changePasswordSchema });
  // Passwords never travel back to the page.
  const hideFields = [...PASSWORD_FIELDS];
  if (submission.status !== "success") {
    return data<AccountActionData>({ result: submission.reply({ hideFields }) }, { status: 400 });
  }
  try {
    const { headers } = await changePassword(
      context.app,
      context.auth,
      viewer,
      submission.value,
      request.headers,
    );
    // The other sessions are ended; this browser gets its fresh session cookie. The form empties.
    return data<AccountActionData>(
      { result: submission.reply({ resetForm: true, hideFields }), toast: ACCOUNT_UPDATED },
      { headers },
    );
  } catch (error) {
    return failureReply(context.app, error, {
      ...AREA_FAILURES.accountSettings,
      reply: (options) => submission.reply({ ...options, hideFields }),
      inlineFields: PASSWORD_FIELDS,
    });
  }
}

/** spec 1 §2 /settings/account/password, §5 'Password change'; links to /forgotpassword. */
export default function Password({ actionData }: Route.ComponentProps) {
  const submitting = useSubmitting();
  const save = useSaveEnabled(
    { currentPassword: "", newPassword: "", confirmPassword: "" },
    { requireChange: false },
  );
  useActionToast(actionData?.toast);
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: changePasswordSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });

  const passwordField = (name: (typeof PASSWORD_FIELDS)[number], label: string, autoComplete: string) => {
    const field = fields[name];
    return (
      <Field
        label={label}
        type="password"
        key={field.key}
        id={field.id}
        name={field.name}
        error={field.errors?.[0]}
        autoComplete={autoComplete}
        maxLength={MAX_PASSWORD_LENGTH}
      />
    );
  };

  return (
    <SettingsPage title="Password" backTo="/settings/account">
      <NoScriptMessage toast={actionData?.toast} />
      <Form
        method="post"
        {...getFormProps(form)}
        ref={save.formRef}
        onChange={save.onChange}
        className="flex flex-col gap-4"
      >
        {passwordField("currentPassword", "Current password", "current-password")}
        {passwordField("newPassword", "New password", "new-password")}
        {passwordField("confirmPassword", "Re-enter new password", "new-password")}
        <AccountFormNote>
          At least 6 characters. Changing it logs you out everywhere else.{" "}
          <AccountTextLink to="/forgotpassword">Forgot your password?</AccountTextLink>
        </AccountFormNote>
        <Button type="submit" className="self-start" processing={submitting} disabled={save.disabled}>
          Save
        </Button>
      </Form>
    </SettingsPage>
  );
}
