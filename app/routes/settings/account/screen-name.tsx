import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
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
import { ACCOUNT_UPDATED, type AccountActionData } from "~/app/routes/settings/account/account-action.server";
import { MAX_USERNAME_LENGTH, usernameSchema } from "~/server/accounts/schemas";
import { changeUsername } from "~/server/accounts/settings";
import type { Route } from "./+types/screen-name";

// Issue 10 §1, decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Username", matches[0]?.loaderData?.campus) }];
}

export async function loader(args: Route.LoaderArgs) {
  const viewer = await requireUser(args);
  return { username: viewer.username };
}

export async function action(args: Route.ActionArgs) {
  const viewer = await requireUser(args);
  const submission = parseWithZod(await readForm(args.request), { schema: usernameSchema });
  if (submission.status !== "success") {
    return data<AccountActionData>({ result: submission.reply() }, { status: 400 });
  }
  try {
    await changeUsername(args.context.app, viewer, submission.value);
  } catch (error) {
    return failureReply(args.context.app, error, {
      ...AREA_FAILURES.accountSettings,
      reply: (options) => submission.reply(options),
      inlineFields: ["username"],
    });
  }
  return redirectWithToast("/settings/account/screen_name", ACCOUNT_UPDATED);
}

/** spec 1 §2 /settings/account/screen_name, §5 'Username change'. */
export default function ScreenName({ loaderData, actionData }: Route.ComponentProps) {
  const submitting = useSubmitting();
  const save = useSaveEnabled({ username: loaderData.username });
  useActionToast(actionData?.toast);
  const [form, fields] = useForm({
    // A new saved value starts the form afresh (it shows what was saved, in lower case).
    id: `username-${loaderData.username}`,
    lastResult: actionData?.result,
    defaultValue: { username: loaderData.username },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: usernameSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });

  return (
    <SettingsPage title="Username" backTo="/settings/account">
      <NoScriptMessage toast={actionData?.toast} />
      <Form
        method="post"
        {...getFormProps(form)}
        ref={save.formRef}
        onChange={save.onChange}
        className="flex flex-col gap-4"
      >
        <Field
          label="Username"
          key={fields.username.key}
          id={fields.username.id}
          name={fields.username.name}
          defaultValue={fields.username.initialValue}
          error={fields.username.errors?.[0]}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={MAX_USERNAME_LENGTH}
        />
        <AccountFormNote>
          Your profile lives at /{loaderData.username}. Letters, numbers, _ and - only; saved in lower case.
        </AccountFormNote>
        <Button type="submit" className="self-start" processing={submitting} disabled={save.disabled}>
          Save
        </Button>
      </Form>
    </SettingsPage>
  );
}
