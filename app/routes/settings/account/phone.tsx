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
import { MAX_PHONE_LENGTH, phoneSchema } from "~/server/accounts/schemas";
import { changePhone, getAccountOverview } from "~/server/accounts/settings";
import type { Route } from "./+types/phone";

// Issue 10 §1, decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Phone", matches[0]?.loaderData?.campus) }];
}

/**
 * spec 1 §2: 'After a phone change, if a stored flag is set, the user goes to /checkout.'
 * The flag is the query `next=checkout`, set by whatever sends the user here on the way
 * to paying (decision 0042). The form posts to the page's own URL, query included.
 */
const CHECKOUT_FLAG = { name: "next", value: "checkout" } as const;

export async function loader(args: Route.LoaderArgs) {
  const viewer = await requireUser(args);
  const account = await getAccountOverview(args.context.app, viewer.id);
  return { phone: account.phone ?? "" };
}

export async function action(args: Route.ActionArgs) {
  const viewer = await requireUser(args);
  const { request, context } = args;
  const submission = parseWithZod(await readForm(request), { schema: phoneSchema });
  if (submission.status !== "success") {
    return data<AccountActionData>({ result: submission.reply() }, { status: 400 });
  }
  try {
    await changePhone(context.app, viewer, submission.value);
  } catch (error) {
    // spec 1 §8: server messages for phone show as danger alerts.
    return failureReply(context.app, error, {
      ...AREA_FAILURES.accountSettings,
      reply: (options) => submission.reply(options),
    });
  }
  const toCheckout = new URL(request.url).searchParams.get(CHECKOUT_FLAG.name) === CHECKOUT_FLAG.value;
  return redirectWithToast(toCheckout ? "/checkout" : "/settings/account/phone", ACCOUNT_UPDATED);
}

/** spec 1 §2 /settings/account/phone, §5 'Phone'. */
export default function Phone({ loaderData, actionData }: Route.ComponentProps) {
  const submitting = useSubmitting();
  const save = useSaveEnabled({ phone: loaderData.phone });
  useActionToast(actionData?.toast);
  const [form, fields] = useForm({
    id: `phone-${loaderData.phone}`,
    lastResult: actionData?.result,
    defaultValue: { phone: loaderData.phone },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: phoneSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });

  return (
    <SettingsPage title="Phone" backTo="/settings/account">
      <NoScriptMessage toast={actionData?.toast} />
      <Form
        method="post"
        {...getFormProps(form)}
        ref={save.formRef}
        onChange={save.onChange}
        className="flex flex-col gap-4"
      >
        <Field
          label="Phone"
          type="tel"
          key={fields.phone.key}
          id={fields.phone.id}
          name={fields.phone.name}
          defaultValue={fields.phone.initialValue}
          error={fields.phone.errors?.[0]}
          placeholder="+1 405 555 0134"
          autoComplete="tel"
          inputMode="tel"
          maxLength={MAX_PHONE_LENGTH}
        />
        <AccountFormNote>Your phone number is not shown publicly.</AccountFormNote>
        <Button type="submit" className="self-start" processing={submitting} disabled={save.disabled}>
          Save
        </Button>
      </Form>
    </SettingsPage>
  );
}
