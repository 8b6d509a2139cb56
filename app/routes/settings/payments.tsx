import { Link } from "react-router";
import { formatCents } from "~/app/components/settings/account-rows";
import { SettingsPage } from "~/app/components/settings/settings-page";
import { pageTitle } from "~/app/components/shell/campus";
import { ChevronRightIcon } from "~/app/components/ui/icons";
import { requireUser } from "~/app/lib/viewer.server";
import { getAvailableFunds } from "~/server/accounts/settings";
import type { Route } from "./+types/payments";

// Issue 10 §1, decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Payments", matches[0]?.loaderData?.campus) }];
}

export async function loader(args: Route.LoaderArgs) {
  const viewer = await requireUser(args);
  return { availableFunds: await getAvailableFunds(args.context.app, viewer.id) };
}

/**
 * /settings/payments (spec 1 §2 'Settings'): Available Funds (available_funds, in
 * cents), the Payment Activity list and a Customer Support link. Payments themselves
 * arrive with boosting (spec 2); until then the activity list is empty and says so.
 */
export default function Payments({ loaderData }: Route.ComponentProps) {
  return (
    <SettingsPage title="Payments">
      <section aria-labelledby="available-funds">
        <h2 id="available-funds" className="text-sm font-semibold tracking-wide text-zinc-500 uppercase">
          Available Funds
        </h2>
        <p className="mt-1 text-3xl font-bold tracking-tight text-zinc-900">
          {formatCents(loaderData.availableFunds)}
        </p>
        <p className="mt-1 text-[15px] text-zinc-600">Funds will get added when you boost a post.</p>
      </section>
      <section aria-labelledby="payment-activity" className="mt-8">
        <h2 id="payment-activity" className="text-sm font-semibold tracking-wide text-zinc-500 uppercase">
          Payment Activity
        </h2>
        <ul className="mt-2 rounded-xl border border-dashed border-zinc-200">
          <li className="px-4 py-6 text-center text-[15px] text-zinc-500">No payment activity yet.</li>
        </ul>
      </section>
      <Link
        to="/settings/help"
        className="-mx-2 mt-6 flex items-center justify-between rounded-lg px-2 py-3 font-semibold text-brand-600 hover:bg-zinc-50"
      >
        Customer Support
        <ChevronRightIcon className="size-4 shrink-0" />
      </Link>
    </SettingsPage>
  );
}
