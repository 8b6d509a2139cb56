import { data, Link, useNavigation } from "react-router";
import { ConsoleNav } from "~/app/components/admin/console-nav";
import { CARD, ConsoleTime } from "~/app/components/admin/console-time";
import { pageTitle } from "~/app/components/shell/campus";
import { orNotFound } from "~/app/lib/errors.server";
import { getViewer } from "~/app/lib/viewer.server";
import { CONSOLE_MESSAGES } from "~/server/admin/console.shared";
import { type CampusActivity, type DashboardWindow, getDashboard } from "~/server/admin/dashboard";
import type { Route } from "./+types/dashboard";

/** Decision 0140: an error answers in this page's panel (the 404 panel for anyone but a site admin, decision 0520). */
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [
    { title: pageTitle("Dashboard · Console", matches[0]?.loaderData?.campus) },
    { name: "robots", content: "noindex" },
  ];
}

/** Decision 0551: site admins only; anyone else, signed out included, gets the 404 page. */
export async function loader(args: Route.LoaderArgs) {
  const viewer = await getViewer(args);
  const days: DashboardWindow = new URL(args.request.url).searchParams.get("days") === "30" ? 30 : 7;
  const dashboard = await orNotFound(getDashboard(args.context.app, viewer));
  return data({ ...dashboard, days });
}

const money = (cents: number) =>
  `${cents < 0 ? "−" : ""}$${(Math.abs(cents) / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/**
 * /admin (decision 0551): the site's problems, each with the time it started and what to do, then
 * each campus's last 7 or 30 days.
 */
export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { problems, campuses, days, newestBackup, checkedAt } = loaderData;
  const loading = useNavigation().state === "loading";
  return (
    <article
      aria-labelledby="dashboard-title"
      aria-busy={loading || undefined}
      className="flex min-w-0 flex-col gap-4"
    >
      <ConsoleNav />
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 id="dashboard-title" className="text-xl font-bold tracking-tight text-zinc-900 md:text-2xl">
          Dashboard
        </h1>
        <p className="text-sm text-zinc-500">
          Checked <ConsoleTime date={checkedAt} />
        </p>
      </header>

      <section aria-labelledby="problems-title" className={CARD}>
        <h2 id="problems-title" className="text-lg font-bold text-zinc-900">
          {problems.length === 0
            ? "No problems"
            : `${problems.length} ${problems.length === 1 ? "problem" : "problems"}`}
        </h2>
        {problems.length === 0 ? (
          <p className="mt-2 text-[15px] text-zinc-600">{CONSOLE_MESSAGES.noProblems}</p>
        ) : (
          <ul className="mt-3 flex flex-col gap-3">
            {problems.map((problem) => (
              <li
                key={`${problem.kind}-${problem.title}`}
                className="rounded-xl border border-amber-300 bg-amber-50 p-3 md:p-4"
              >
                <p className="font-semibold text-zinc-900">{problem.title}</p>
                <p className="mt-1 text-sm text-zinc-600">
                  Since <ConsoleTime date={problem.since} />
                </p>
                <p className="mt-2 text-sm text-zinc-800">
                  <span className="font-semibold">What to do: </span>
                  {problem.action}
                </p>
                {problem.link ? (
                  <Link
                    to={problem.link.to}
                    className="mt-2 inline-block text-sm font-semibold text-brand-700 underline underline-offset-2"
                  >
                    {problem.link.label}
                  </Link>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        <p className="mt-4 text-sm text-zinc-600">
          {newestBackup ? (
            <>
              Last backup: {newestBackup.file}, <ConsoleTime date={newestBackup.createdAt} />.
            </>
          ) : (
            "No backup has been made with npm run backup yet (README, Backups)."
          )}
        </p>
      </section>

      <section aria-labelledby="campuses-title" className={CARD}>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="campuses-title" className="text-lg font-bold text-zinc-900">
            Campuses, last {days} days
          </h2>
          <nav aria-label="Period" className="flex gap-1">
            {([7, 30] as const).map((window) => (
              <Link
                key={window}
                to={window === 7 ? "/admin" : "/admin?days=30"}
                aria-current={window === days ? "page" : undefined}
                className={`rounded-full px-3 py-1.5 text-sm font-medium ${
                  window === days ? "bg-zinc-900 text-white" : "text-zinc-700 hover:bg-zinc-100"
                }`}
              >
                {window} days
              </Link>
            ))}
          </nav>
        </div>
        <p className="mt-1 text-sm text-zinc-500">
          New students and, of them, the school-verified; listings posted; trades completed; revenue is
          payments less refunds. Open reports (overdue: waiting over 72 hours) and running ads are as of now.
        </p>
        <CampusTable campuses={campuses} days={days} />
      </section>
    </article>
  );
}

// Decision 0551: the campus's figures, in the order the dashboard reads them.
const COLUMNS = [
  { key: "new", label: "New students" },
  { key: "verified", label: "Verified" },
  { key: "listings", label: "Listings" },
  { key: "trades", label: "Completed trades" },
  { key: "reports", label: "Reports (overdue)" },
  { key: "ads", label: "Ads running" },
  { key: "revenue", label: "Revenue" },
] as const;

function cells(
  campus: CampusActivity,
  days: DashboardWindow,
): Record<(typeof COLUMNS)[number]["key"], string> {
  const window = campus.windows[days];
  return {
    new: String(window.newStudents),
    verified: String(window.verifiedStudents),
    listings: String(window.listings),
    trades: String(window.completedTrades),
    reports: `${campus.openReports} (${campus.overdueReports})`,
    ads: String(campus.runningAds),
    revenue: money(window.revenueCents),
  };
}

function CampusTable({ campuses, days }: { campuses: CampusActivity[]; days: DashboardWindow }) {
  return (
    <>
      {/* A phone: one card per campus, its figures stacked. */}
      <ul className="mt-3 flex flex-col gap-2 md:hidden">
        {campuses.map((campus) => {
          const values = cells(campus, days);
          return (
            <li key={campus.campusId} className="rounded-xl border border-zinc-200 p-3">
              <h3 className="font-semibold text-zinc-900">{campus.name}</h3>
              <dl className="mt-2 grid grid-cols-3 gap-2 text-center">
                {COLUMNS.map((column) => (
                  <div key={column.key} className="flex flex-col-reverse rounded-lg bg-zinc-50 px-1 py-1.5">
                    <dt className="text-xs leading-tight text-zinc-500">{column.label}</dt>
                    <dd className="font-semibold text-zinc-900 tabular-nums">{values[column.key]}</dd>
                  </div>
                ))}
              </dl>
            </li>
          );
        })}
      </ul>
      <section
        aria-label="Campus figures"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls sideways when narrow; its focus is how a keyboard scrolls it.
        tabIndex={0}
        className="mt-3 hidden overflow-x-auto focus-visible:outline-2 focus-visible:outline-brand-600 md:block"
      >
        <table className="w-full text-sm">
          <caption className="sr-only">Each campus's activity over the last {days} days</caption>
          <thead>
            <tr className="border-b border-zinc-200 text-left text-zinc-500">
              <th scope="col" className="py-2 pr-1.5 text-xs font-medium">
                Campus
              </th>
              {COLUMNS.map((column) => (
                <th key={column.key} scope="col" className="px-1.5 py-2 text-right text-xs font-medium">
                  {column.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {campuses.map((campus) => {
              const values = cells(campus, days);
              return (
                <tr key={campus.campusId}>
                  <th scope="row" className="py-2 pr-1.5 text-left font-semibold text-zinc-900">
                    {campus.name}
                  </th>
                  {COLUMNS.map((column) => (
                    <td key={column.key} className="px-1.5 py-2 text-right text-zinc-900 tabular-nums">
                      {values[column.key]}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>
    </>
  );
}
