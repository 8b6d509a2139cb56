import type { ReactNode } from "react";
import { data, Link, useFetcher } from "react-router";
import { z } from "zod";
import { ConsoleNav } from "~/app/components/admin/console-nav";
import { Badge, type ConsoleActionData, money, Panel, utc } from "~/app/components/admin/console-parts";
import { pageTitle } from "~/app/components/shell/campus";
import { useActionToast } from "~/app/components/ui/action-feedback";
import { adminSessionOf } from "~/app/lib/admin-session.server";
import { failureReply, orNotFound } from "~/app/lib/errors.server";
import { formFields, readForm, readIntent } from "~/app/lib/form.server";
import type { ToastInput } from "~/app/lib/toast";
import { getViewer } from "~/app/lib/viewer.server";
import { ADMIN_MESSAGES } from "~/server/admin/errors.shared";
import { getPaymentsPage, refundAd } from "~/server/admin/payments";
import { signInIsRecent } from "~/server/admin/reauth";
import type { RefundAdInput } from "~/server/admin/schemas.shared";
import { requireSiteAdmin } from "~/server/staff/roles";
import type { Route } from "./+types/payments";

/** Decision 0140: an error answers in this page's panel (the 404 panel for anyone but a site admin). */
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [
    { title: pageTitle("Payments and ads", matches[0]?.loaderData?.campus) },
    { name: "robots", content: "noindex" },
  ];
}

/** Decision 0564: site admins only; each list pages by its own cursor in the address. */
export async function loader(args: Route.LoaderArgs) {
  const app = args.context.app;
  const viewer = await getViewer(args);
  const params = new URL(args.request.url).searchParams;
  const page = await orNotFound(
    getPaymentsPage(app, viewer, {
      ads: params.get("ads"),
      payments: params.get("payments"),
      checkouts: params.get("checkouts"),
    }),
  );
  const recent = viewer ? await signInIsRecent(app, viewer.id, adminSessionOf(args.request).token) : false;
  return data({ ...page, askPassword: !recent });
}

const INTENTS = z.enum(["refund-ad"]);
const FAILURES = { fallback: ADMIN_MESSAGES.somethingWentWrong, logMessage: "console refund failed" };

export async function action(args: Route.ActionArgs) {
  const app = args.context.app;
  const viewer = await getViewer(args);
  // Before the form is read: nothing about the form may tell anyone else the page exists.
  await orNotFound(requireSiteAdmin(app, viewer));
  const form = await readForm(args.request);
  const intent = readIntent(form, INTENTS);
  try {
    const refund = await orNotFound(
      refundAd(app, viewer, formFields(form) as RefundAdInput, adminSessionOf(args.request)),
    );
    const message = refund.replayed
      ? `Already refunded: ${money(refund.amount)} on ${utc(refund.createdAt)}. Nothing changed.`
      : `Refunded ${money(refund.amount)}.`;
    const toast: ToastInput = { message, type: "okay" };
    return data({ ok: true as const, intent, toast, refund });
  } catch (error) {
    return failureReply(app, error, { intent, inlineFields: ["password"], ...FAILURES });
  }
}

type AdRow = Route.ComponentProps["loaderData"]["ads"]["rows"][number];

/** One ad's refund: the key came with the page (decision 0560), so a second click finds the first refund. */
function RefundForm({ ad, askPassword }: { ad: AdRow; askPassword: boolean }) {
  const fetcher = useFetcher<ConsoleActionData & { refund?: { amount: number; replayed: boolean } }>();
  useActionToast(fetcher.data?.toast);
  const passwordError =
    fetcher.data?.fieldError?.field === "password" ? fetcher.data.fieldError.message : null;
  const showPassword = askPassword || passwordError !== null;
  const running = ad.status === "active" || ad.status === "paused";
  return (
    <fetcher.Form
      method="post"
      className="flex flex-col gap-2"
      aria-label={`Refund ${ad.title || "this ad"}`}
    >
      <input type="hidden" name="intent" value="refund-ad" />
      <input type="hidden" name="adId" value={ad.id} />
      <input type="hidden" name="idempotencyKey" value={ad.refundKey} />
      {showPassword ? (
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium text-zinc-800">Your password</span>
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            maxLength={200}
            className="rounded-lg border border-zinc-300 px-3 py-2 text-base"
          />
          {passwordError ? <span className="text-red-700">{passwordError}</span> : null}
        </label>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <button
          type="submit"
          name="mode"
          value="full"
          disabled={fetcher.state !== "idle"}
          className="rounded-full border border-red-300 px-3 py-1.5 text-sm font-semibold text-red-700 hover:bg-red-50 disabled:text-zinc-400"
        >
          Refund in full ({money(ad.amountBudgeted - ad.amountRefunded)})
        </button>
        {running ? (
          <button
            type="submit"
            name="mode"
            value="unused"
            disabled={fetcher.state !== "idle"}
            className="rounded-full border border-zinc-300 px-3 py-1.5 text-sm font-semibold hover:bg-zinc-50 disabled:text-zinc-400"
          >
            Refund unused days
          </button>
        ) : null}
      </div>
      <p aria-live="polite" className="text-sm text-zinc-700">
        {fetcher.state === "idle" && fetcher.data?.toast ? fetcher.data.toast.message : ""}
      </p>
    </fetcher.Form>
  );
}

/** Decision 0564: one keyset-paged list of the page, newest first, a line a row, 'Older' below. */
function RowsPanel<T extends { id: string }>({
  title,
  id,
  empty,
  name,
  page,
  row,
}: {
  title: string;
  id: string;
  empty: string;
  name: string;
  page: { rows: T[]; next: string | null };
  row: (row: T) => ReactNode;
}) {
  return (
    <Panel title={title} id={id}>
      {page.rows.length === 0 ? (
        <p className="text-sm text-zinc-600">{empty}</p>
      ) : (
        <ul className="divide-y divide-zinc-100 text-sm">
          {page.rows.map((item) => (
            <li key={item.id} className="flex flex-wrap justify-between gap-2 py-2">
              {row(item)}
            </li>
          ))}
        </ul>
      )}
      <More name={name} cursor={page.next} />
    </Panel>
  );
}

type LedgerDayRow = Route.ComponentProps["loaderData"]["ledger"]["test"][number];

/** One day of one provider (decision 0565): a provider's total read only in part, or not at all, says so. */
function LedgerRow({ day, provider }: { day: LedgerDayRow; provider: string }) {
  return (
    <tr>
      <td className="py-1.5 pr-3 whitespace-nowrap">{day.day}</td>
      <td className="py-1.5 pr-3">{provider}</td>
      <td className="py-1.5 pr-3">{money(day.ledger)}</td>
      {day.provider === null ? (
        <td className="py-1.5 pr-3 text-zinc-600">Not fetched</td>
      ) : (
        <td className="py-1.5 pr-3">
          {money(day.provider)}{" "}
          {day.partial ? (
            <Badge tone="zinc">Partial</Badge>
          ) : day.provider === day.ledger ? (
            <Badge tone="green">Matches</Badge>
          ) : (
            <Badge tone="amber">Differs</Badge>
          )}
        </td>
      )}
    </tr>
  );
}

function More({ name, cursor }: { name: string; cursor: string | null }) {
  if (!cursor) return null;
  return (
    <Link
      to={`?${name}=${encodeURIComponent(cursor)}`}
      className="mt-2 inline-block text-sm font-semibold text-brand-700 hover:underline"
    >
      Older
    </Link>
  );
}

/**
 * /admin/payments (decisions 0560, 0564, 0565): the ledger beside the provider's totals, the ads
 * with their states and refunds, the payments and refunds, and the checkouts.
 */
export default function Payments({ loaderData }: Route.ComponentProps) {
  const { ads, payments, checkouts, ledger, askPassword } = loaderData;
  return (
    <article aria-labelledby="payments-title" className="flex min-w-0 flex-col gap-4">
      <ConsoleNav />
      <header>
        <h1 id="payments-title" className="text-xl font-bold tracking-tight text-zinc-900 md:text-2xl">
          Payments and ads
        </h1>
        <p className="mt-1 text-sm text-zinc-600">
          A refund stops a running ad. Each refund button works once; a second click shows the first refund.
        </p>
      </header>

      <Panel title="Ledger, last 30 days (UTC)" id="ledger-title">
        {ledger.test.length === 0 && ledger.stripe.length === 0 ? (
          <p className="text-sm text-zinc-600">No payments in the last 30 days.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">
                Payments less refunds per day, beside the provider's totals
              </caption>
              <thead className="text-zinc-500">
                <tr>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    Day
                  </th>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    Provider
                  </th>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    Our books
                  </th>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    Provider's totals
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-zinc-100">
                {ledger.test.map((day) => (
                  <LedgerRow key={`test-${day.day}`} day={day} provider="Test checkout" />
                ))}
                {ledger.stripe.map((day) => (
                  <LedgerRow key={`stripe-${day.day}`} day={day} provider="Stripe" />
                ))}
              </tbody>
            </table>
          </div>
        )}
        {ledger.stripeNote && (ledger.stripe.length > 0 || ledger.stripeFailed) ? (
          <p
            role={ledger.stripeFailed ? "alert" : undefined}
            className={`mt-2 text-sm ${ledger.stripeFailed ? "text-red-700" : "text-zinc-600"}`}
          >
            {ledger.stripeNote}
          </p>
        ) : null}
      </Panel>

      <Panel title="Ads" id="ads-title">
        {ads.rows.length === 0 ? (
          <p className="text-sm text-zinc-600">No paid ads yet.</p>
        ) : (
          <ul className="divide-y divide-zinc-100">
            {ads.rows.map((ad) => (
              <li key={ad.id} className="flex flex-col gap-2 py-3">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="min-w-0 font-semibold break-words text-zinc-900">
                    {ad.title || "Untitled ad"}
                  </span>
                  <Badge tone={ad.status === "active" ? "green" : "zinc"}>{ad.status}</Badge>
                </div>
                <p className="text-sm text-zinc-600">
                  <Link to={`/admin/students/${ad.userId}`} className="text-brand-700 hover:underline">
                    @{ad.username}
                  </Link>{" "}
                  · {ad.campusId} · {ad.days} days · paid {money(ad.amountBudgeted)}
                  {ad.amountRefunded > 0 ? ` · refunded ${money(ad.amountRefunded)}` : ""} ·{" "}
                  {utc(ad.createdAt)}
                </p>
                {ad.refundable ? <RefundForm ad={ad} askPassword={askPassword} /> : null}
              </li>
            ))}
          </ul>
        )}
        <More name="ads" cursor={ads.next} />
      </Panel>

      <RowsPanel
        title="Payments and refunds"
        id="ledger-rows-title"
        empty="No payments yet."
        name="payments"
        page={payments}
        row={(row) => (
          <>
            <span className="min-w-0 break-words">
              {row.description} · @{row.username}
            </span>
            <span className="text-zinc-600">
              {row.kind === "refund" ? money(-row.amount) : money(row.amount)} · {row.provider}
              {row.status === "pending" ? " · pending" : ""} · {utc(row.createdAt)}
            </span>
          </>
        )}
      />

      <RowsPanel
        title="Checkouts"
        id="checkouts-title"
        empty="No checkouts yet."
        name="checkouts"
        page={checkouts}
        row={(row) => (
          <>
            <span className="min-w-0 font-mono text-xs break-all">{row.id}</span>
            <span className="text-zinc-600">
              {row.status} · {money(row.amountTotal)} · {row.provider} · {utc(row.createdAt)}
            </span>
          </>
        )}
      />
    </article>
  );
}
