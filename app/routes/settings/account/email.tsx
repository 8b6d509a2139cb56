import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useMemo } from "react";
import { data, Form } from "react-router";
import { NoScriptMessage, useActionToast, useSubmitting } from "~/app/components/auth/action-feedback";
import { AccountFormNote, useSaveEnabled } from "~/app/components/settings/account-form";
import { SettingsPage } from "~/app/components/settings/settings-page";
import { pageTitle } from "~/app/components/shell/campus";
import { Button } from "~/app/components/ui/button";
import { Field } from "~/app/components/ui/field";
import { AREA_FAILURES, failureReply } from "~/app/lib/errors.server";
import { readForm } from "~/app/lib/form.server";
import { redirectWithToast } from "~/app/lib/toast.server";
import { requireUser } from "~/app/lib/viewer.server";
import { type AccountActionData, EMAIL_SENT } from "~/app/routes/settings/account/account-action.server";
import { changeEmailSchema, MAX_EMAIL_LENGTH } from "~/server/accounts/schemas";
import { requestEmailChange } from "~/server/accounts/settings";
import type { Route } from "./+types/email";

// Issue 10 §1, decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Email", matches[0]?.loaderData?.campus) }];
}

export async function loader(args: Route.LoaderArgs) {
  const viewer = await requireUser(args);
  return { email: viewer.email };
}

export async function action(args: Route.ActionArgs) {
  const viewer = await requireUser(args);
  const { request, context } = args;
  const submission = parseWithZod(await readForm(request), { schema: changeEmailSchema(viewer.email) });
  if (submission.status !== "success") {
    return data<AccountActionData>({ result: submission.reply() }, { status: 400 });
  }
  try {
    const { email } = await requestEmailChange(context.app, viewer, submission.value, context.campus);
    return redirectWithToast(`/settings/account/verify_email?email=${encodeURIComponent(email)}`, EMAIL_SENT);
  } catch (error) {
    return failureReply(context.app, error, {
      ...AREA_FAILURES.accountSettings,
      reply: (options) => submission.reply(options),
      inlineFields: ["email"],
    });
  }
}

/**
 * spec 1 §2 /settings/account/email, §4 'E-mail change': a new address gets a PIN,
 * entered on /settings/account/verify_email, which comes back here with a success toast.
 */
export default function Email({ loaderData, actionData }: Route.ComponentProps) {
  const submitting = useSubmitting();
  const save = useSaveEnabled({ email: loaderData.email });
  const schema = useMemo(() => changeEmailSchema(loaderData.email), [loaderData.email]);
  useActionToast(actionData?.toast);
  const [form, fields] = useForm({
    id: `email-${loaderData.email}`,
    lastResult: actionData?.result,
    defaultValue: { email: loaderData.email },
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });

  return (
    <SettingsPage title="Email" backTo="/settings/account">
      <NoScriptMessage toast={actionData?.toast} />
      <Form
        method="post"
        {...getFormProps(form)}
        ref={save.formRef}
        onChange={save.onChange}
        className="flex flex-col gap-4"
      >
        <Field
          label="Email"
          type="email"
          key={fields.email.key}
          id={fields.email.id}
          name={fields.email.name}
          defaultValue={fields.email.initialValue}
          error={fields.email.errors?.[0]}
          autoComplete="email"
          inputMode="email"
          maxLength={MAX_EMAIL_LENGTH}
        />
        <AccountFormNote>
          We send a 4-digit PIN to the new address. Your email changes once you enter it; until then you keep
          logging in with {loaderData.email}.
        </AccountFormNote>
        <Button type="submit" className="self-start" processing={submitting} disabled={save.disabled}>
          Save
        </Button>
      </Form>
    </SettingsPage>
  );
}
