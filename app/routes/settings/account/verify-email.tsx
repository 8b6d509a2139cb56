import { redirect } from "react-router";
import { AccountFormNote, AccountTextLink } from "~/app/components/settings/account-form";
import { AccountPinForm, PIN_INTENTS } from "~/app/components/settings/account-pin-form";
import { pageTitle } from "~/app/components/shell/campus";
import { AREA_FAILURES } from "~/app/lib/errors.server";
import { readForm } from "~/app/lib/form.server";
import { redirectWithToast } from "~/app/lib/toast.server";
import { requireUser } from "~/app/lib/viewer.server";
import { answerCodeForm } from "~/app/routes/auth/action.server";
import { ACCOUNT_UPDATED } from "~/app/routes/settings/account/account-action.server";
import { confirmEmailChange, requestEmailChange } from "~/server/accounts/settings";
import type { Route } from "./+types/verify-email";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Enter PIN", matches[0]?.loaderData?.campus) }];
}

/** spec 1 §2: the page reads the email query parameter; without it there is nothing to confirm. */
function emailQuery(request: Request): string {
  const email = new URL(request.url).searchParams.get("email")?.trim();
  if (!email) throw redirect("/settings/account/email");
  return email;
}

export async function loader(args: Route.LoaderArgs) {
  await requireUser(args);
  return { email: emailQuery(args.request) };
}

export async function action(args: Route.ActionArgs) {
  const viewer = await requireUser(args);
  const { request, context } = args;
  const email = emailQuery(request);
  return answerCodeForm(context.app, await readForm(request), {
    intents: PIN_INTENTS,
    failures: AREA_FAILURES.accountSettings,
    resend: () => requestEmailChange(context.app, viewer, { email }, context.campus),
    verify: async (value) => {
      await confirmEmailChange(context.app, viewer, value);
      // spec 1 §4: back to the e-mail page, which shows the success alert (trigger_alert 'update_success').
      return redirectWithToast("/settings/account/email", ACCOUNT_UPDATED);
    },
  });
}

/** spec 1 §2 /settings/account/verify_email ('Enter PIN'). */
export default function VerifyEmail({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <AccountPinForm sentTo={loaderData.email} actionData={actionData}>
      <div className="mt-5">
        <AccountFormNote>
          Wrong address? <AccountTextLink to="/settings/account/email">Change it</AccountTextLink>
        </AccountFormNote>
      </div>
    </AccountPinForm>
  );
}
