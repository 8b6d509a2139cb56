import { Link } from "react-router";
import { formatCents } from "~/app/components/settings/account-rows";
import { SettingsPage } from "~/app/components/settings/settings-page";
import { pageTitle } from "~/app/components/shell/campus";
import { ChevronRightIcon } from "~/app/components/ui/icons";
import { requireUser } from "~/app/lib/viewer.server";
import { getAvailableFunds } from "~/server/accounts/settings";
import { listPayments } from "~/server/ads/payments-activity";
import type { Route } from "./+types/payments";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Payments", matches[0]?.loaderData?.campus) }];
}

export async function loader(args: Route.LoaderArgs) {
  const viewer = await requireUser(args);
  const [availableFunds, activity] = await Promise.all([
    getAvailableFunds(args.context.app, viewer.id),
    listPayments(args.context.app, viewer),
  ]);
  return { availableFunds, activity };
}

const dateFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric" });

/**
 * /settings/payments (spec 1 §2 'Settings'): Available Funds (available_funds, in cents), the
 * Payment Activity list — boosts paid and refunds of unused days (decision 0272) — and a
 * Customer Support link.
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
        {loaderData.activity.length === 0 ? (
          <ul className="mt-2 rounded-xl border border-dashed border-zinc-200">
            <li className="px-4 py-6 text-center text-[15px] text-zinc-500">No payment activity yet.</li>
          </ul>
        ) : (
          <ul
            aria-label="Payment Activity"
            className="mt-2 divide-y divide-zinc-100 rounded-xl border border-zinc-200"
          >
            {loaderData.activity.map((entry) => (
              <li key={entry.id} className="flex items-center justify-between gap-3 px-4 py-3">
                <div className="min-w-0">
                  <p className="truncate text-[15px] font-medium text-zinc-900">
                    {entry.adId ? (
                      <Link to={`/ads/${entry.adId}`} className="hover:underline">
                        {entry.description}
                      </Link>
                    ) : (
                      entry.description
                    )}
                  </p>
                  <p className="text-sm text-zinc-500">
                    {dateFormat.format(entry.createdAt)}
                    {entry.status === "pending" ? " · Pending" : ""}
                    {entry.testMode ? " · Test mode" : ""}
                  </p>
                </div>
                <p
                  className={`shrink-0 font-semibold ${entry.kind === "refund" ? "text-green-700" : "text-zinc-900"}`}
                >
                  {entry.kind === "refund" ? "+" : "−"}
                  {formatCents(entry.amount)}
                </p>
              </li>
            ))}
          </ul>
        )}
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
