import { data, Form, Link } from "react-router";
import { QueueRowCard } from "~/app/components/mod/queue-row";
import { pageTitle } from "~/app/components/shell/campus";
import { buttonClass } from "~/app/components/ui/button";
import { orNotFound } from "~/app/lib/errors.server";
import { getViewer } from "~/app/lib/viewer.server";
import { listQueue, readQueueFilters } from "~/server/moderation/queue";
import {
  REASON_CODES,
  REPORT_REASON_LABELS,
  STAFF_DECISION_MESSAGES,
} from "~/server/moderation/rules.shared";
import type { Route } from "./+types/queue";

/** Decision 0140: an error answers in this page's panel (the 404 panel for anyone but staff, decision 0520). */
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [
    { title: pageTitle("Moderation queue", matches[0]?.loaderData?.campus) },
    { name: "robots", content: "noindex" },
  ];
}

/** Decision 0541: staff only; anyone else, signed out included, gets the 404 page. */
export async function loader(args: Route.LoaderArgs) {
  const viewer = await getViewer(args);
  const params = new URL(args.request.url).searchParams;
  // The filter form sends one 'view' (open, overdue, decided); links carry state and overdue.
  const view = params.get("view");
  const filters = readQueueFilters({
    state: view ?? params.get("state"),
    overdue: view === "overdue" ? "1" : params.get("overdue"),
    reason: params.get("reason"),
    campus: params.get("campus"),
  });
  return data(await orNotFound(listQueue(args.context.app, viewer, filters, params.get("cursor"))));
}

const selectClass =
  "rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 focus:border-brand-600 focus:ring-2 focus:ring-brand-600/20 focus:outline-none";

/**
 * /mod (decision 0541): one row per reported thing or appeal, oldest first, with filters by
 * state, reason and (for site admins, or moderators of several campuses) campus.
 */
export default function ModerationQueue({ loaderData }: Route.ComponentProps) {
  const { items, nextCursor, filters, campuses, now } = loaderData;
  const filtered = filters.reason !== null || filters.overdue || filters.campusId !== null;
  const stateValue = filters.overdue ? "overdue" : filters.state;
  const next = new URLSearchParams();
  if (filters.state === "decided") next.set("state", "decided");
  if (filters.overdue) next.set("overdue", "1");
  if (filters.reason) next.set("reason", filters.reason);
  if (filters.campusId) next.set("campus", filters.campusId);
  if (nextCursor) next.set("cursor", nextCursor);
  return (
    <article aria-labelledby="queue-title" className="flex min-w-0 flex-col gap-4">
      <header>
        <h1 id="queue-title" className="text-xl font-bold tracking-tight text-zinc-900 md:text-2xl">
          Moderation queue
        </h1>
        <p className="mt-1 text-sm text-zinc-600">
          Oldest first. Open an item to see its reports and the student's record, then decide.
        </p>
      </header>
      <Form method="get" className="flex flex-wrap items-end gap-3" aria-label="Filter the queue">
        <label className="flex flex-col gap-1 text-sm font-medium text-zinc-800">
          State
          <select name="view" defaultValue={stateValue} className={selectClass} data-queue-state>
            <option value="open">Open</option>
            <option value="overdue">Overdue</option>
            <option value="decided">Decided</option>
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium text-zinc-800">
          Reason
          <select name="reason" defaultValue={filters.reason ?? ""} className={selectClass}>
            <option value="">Any reason</option>
            {REASON_CODES.map((reason) => (
              <option key={reason} value={reason}>
                {REPORT_REASON_LABELS[reason]}
              </option>
            ))}
          </select>
        </label>
        {campuses.length > 1 ? (
          <label className="flex flex-col gap-1 text-sm font-medium text-zinc-800">
            Campus
            <select name="campus" defaultValue={filters.campusId ?? ""} className={selectClass}>
              <option value="">Every campus</option>
              {campuses.map((campus) => (
                <option key={campus.id} value={campus.id}>
                  {campus.name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <button type="submit" className={buttonClass("secondary", "py-2")}>
          Show
        </button>
      </Form>
      {items.length === 0 ? (
        <section className="rounded-2xl border border-dashed border-zinc-300 bg-white px-6 py-12 text-center">
          <h2 className="text-lg font-bold text-zinc-900">
            {filtered || filters.state === "decided"
              ? STAFF_DECISION_MESSAGES.queueEmptyFiltered
              : "All caught up"}
          </h2>
          {filtered || filters.state === "decided" ? null : (
            <p className="mt-1 text-[15px] text-zinc-600">{STAFF_DECISION_MESSAGES.queueEmpty}</p>
          )}
        </section>
      ) : (
        <ul aria-label="Items" className="flex flex-col gap-2">
          {items.map((item) => (
            <QueueRowCard key={item.id} item={item} now={now} showCampus={campuses.length > 1} />
          ))}
        </ul>
      )}
      {nextCursor ? (
        <div className="flex justify-center">
          <Link to={`/mod?${next.toString()}`} className={buttonClass("secondary")}>
            Next page
          </Link>
        </div>
      ) : null}
    </article>
  );
}
