import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { NoScriptMessage, useActionToast, useSubmitting } from "~/app/components/auth/action-feedback";
import { AccountFormError, AccountFormNote, useSaveEnabled } from "~/app/components/settings/account-form";
import { formatGender } from "~/app/components/settings/account-rows";
import { SettingsPage } from "~/app/components/settings/settings-page";
import { pageTitle } from "~/app/components/shell/campus";
import { Button } from "~/app/components/ui/button";
import { AREA_FAILURES, failureReply } from "~/app/lib/errors.server";
import { readForm } from "~/app/lib/form.server";
import { redirectWithToast } from "~/app/lib/toast.server";
import { requireUser } from "~/app/lib/viewer.server";
import { ACCOUNT_UPDATED, type AccountActionData } from "~/app/routes/settings/account/account-action.server";
import { GENDERS, genderSchema } from "~/server/accounts/schemas";
import { changeGender, getAccountOverview } from "~/server/accounts/settings";
import type { Route } from "./+types/gender";

// Issue 10 §1, decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Gender", matches[0]?.loaderData?.campus) }];
}

export async function loader(args: Route.LoaderArgs) {
  const viewer = await requireUser(args);
  const account = await getAccountOverview(args.context.app, viewer.id);
  return { gender: account.gender ?? "" };
}

export async function action(args: Route.ActionArgs) {
  const viewer = await requireUser(args);
  const submission = parseWithZod(await readForm(args.request), { schema: genderSchema });
  if (submission.status !== "success") {
    return data<AccountActionData>({ result: submission.reply() }, { status: 400 });
  }
  try {
    await changeGender(args.context.app, viewer, submission.value);
  } catch (error) {
    // spec 1 §8: server messages for gender show as danger alerts.
    return failureReply(args.context.app, error, {
      ...AREA_FAILURES.accountSettings,
      reply: (options) => submission.reply(options),
    });
  }
  return redirectWithToast("/settings/account/gender", ACCOUNT_UPDATED);
}

/** spec 1 §2 /settings/account/gender, §5 'Gender', §6 'Gender is stated as not shown publicly.' */
export default function Gender({ loaderData, actionData }: Route.ComponentProps) {
  const submitting = useSubmitting();
  const save = useSaveEnabled({ gender: loaderData.gender });
  useActionToast(actionData?.toast);
  const [form, fields] = useForm({
    id: `gender-${loaderData.gender}`,
    lastResult: actionData?.result,
    defaultValue: { gender: loaderData.gender },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: genderSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const errorId = `${fields.gender.id}-error`;
  const error = fields.gender.errors?.[0];

  return (
    <SettingsPage title="Gender" backTo="/settings/account">
      <NoScriptMessage toast={actionData?.toast} />
      <Form
        method="post"
        {...getFormProps(form)}
        ref={save.formRef}
        onChange={save.onChange}
        className="flex flex-col gap-4"
      >
        <fieldset aria-describedby={error ? errorId : undefined} className="flex flex-col gap-1">
          <legend className="mb-2 text-sm font-medium text-zinc-800">Gender</legend>
          {GENDERS.map((gender) => (
            <label
              key={gender}
              className="flex cursor-pointer items-center gap-3 rounded-lg px-2 py-2 text-[15px] text-zinc-900 hover:bg-zinc-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600"
            >
              <input
                type="radio"
                name={fields.gender.name}
                value={gender}
                defaultChecked={fields.gender.initialValue === gender}
                key={`${fields.gender.key}-${gender}`}
                aria-invalid={error ? true : undefined}
                className="size-5 accent-brand-600"
              />
              {formatGender(gender)}
            </label>
          ))}
        </fieldset>
        <AccountFormError id={errorId} message={error} />
        <AccountFormNote>Your gender is not shown publicly.</AccountFormNote>
        <Button type="submit" className="self-start" processing={submitting} disabled={save.disabled}>
          Save
        </Button>
      </Form>
    </SettingsPage>
  );
}
