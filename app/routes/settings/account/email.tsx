import { useMemo } from "react";
import { OneFieldSettingsForm } from "~/app/components/settings/account-form";
import { pageTitle } from "~/app/components/shell/campus";
import { redirectWithToast } from "~/app/lib/toast.server";
import { requireUser } from "~/app/lib/viewer.server";
import { EMAIL_SENT, submitAccountForm } from "~/app/routes/settings/account/account-action.server";
import { changeEmailSchema, MAX_EMAIL_LENGTH } from "~/server/accounts/schemas.shared";
import { requestEmailChange } from "~/server/accounts/settings";
import type { Route } from "./+types/email";

// Decision 0140: an error here answers in this page's panel, inside the shell.
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
  return submitAccountForm(
    request,
    context.app,
    changeEmailSchema(viewer.email),
    async (value) => {
      const { email } = await requestEmailChange(context.app, viewer, value, context.campus);
      return redirectWithToast(
        `/settings/account/verify_email?email=${encodeURIComponent(email)}`,
        EMAIL_SENT,
      );
    },
    { inlineFields: ["email"] },
  );
}

/**
 * spec 1 §2 /settings/account/email, §4 'E-mail change': a new address gets a PIN,
 * entered on /settings/account/verify_email, which comes back here with a success toast.
 */
export default function Email({ loaderData, actionData }: Route.ComponentProps) {
  const schema = useMemo(() => changeEmailSchema(loaderData.email), [loaderData.email]);
  return (
    <OneFieldSettingsForm
      title="Email"
      schema={schema}
      name="email"
      saved={loaderData.email}
      actionData={actionData}
      note={`We send a 4-digit PIN to the new address. Your email changes once you enter it; until then you keep logging in with ${loaderData.email}.`}
      label="Email"
      type="email"
      autoComplete="email"
      inputMode="email"
      maxLength={MAX_EMAIL_LENGTH}
    />
  );
}
