import { OneFieldSettingsForm } from "~/app/components/settings/account-form";
import { pageTitle } from "~/app/components/shell/campus";
import { redirectWithToast } from "~/app/lib/toast.server";
import { requireUser } from "~/app/lib/viewer.server";
import {
  ACCOUNT_UPDATED,
  requireAccount,
  submitAccountForm,
} from "~/app/routes/settings/account/account-action.server";
import { MAX_PHONE_LENGTH, phoneSchema } from "~/server/accounts/schemas.shared";
import { changePhone } from "~/server/accounts/settings";
import type { Route } from "./+types/phone";

// Decision 0140: an error here answers in this page's panel, inside the shell.
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
  const { account } = await requireAccount(args);
  return { phone: account.phone ?? "" };
}

export async function action(args: Route.ActionArgs) {
  const viewer = await requireUser(args);
  const { request, context } = args;
  // spec 1 §8: server messages for phone show as danger alerts.
  return submitAccountForm(request, context.app, phoneSchema, async (value) => {
    await changePhone(context.app, viewer, value);
    const toCheckout = new URL(request.url).searchParams.get(CHECKOUT_FLAG.name) === CHECKOUT_FLAG.value;
    return redirectWithToast(toCheckout ? "/checkout" : "/settings/account/phone", ACCOUNT_UPDATED);
  });
}

/** spec 1 §2 /settings/account/phone, §5 'Phone'. */
export default function Phone({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <OneFieldSettingsForm
      title="Phone"
      schema={phoneSchema}
      name="phone"
      saved={loaderData.phone}
      actionData={actionData}
      note="Your phone number is not shown publicly."
      label="Phone"
      type="tel"
      placeholder="+1 405 555 0134"
      autoComplete="tel"
      inputMode="tel"
      maxLength={MAX_PHONE_LENGTH}
    />
  );
}
