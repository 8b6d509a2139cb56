import { data, Link } from "react-router";
import { ConsoleNav } from "~/app/components/admin/console-nav";
import { Badge } from "~/app/components/admin/console-parts";
import { pageTitle } from "~/app/components/shell/campus";
import { orNotFound } from "~/app/lib/errors.server";
import { getViewer } from "~/app/lib/viewer.server";
import { getCampusesPage } from "~/server/admin/campuses";
import type { Route } from "./+types/campuses";

/** Decision 0140: an error answers in this page's panel (the 404 panel for anyone but a site admin). */
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [
    { title: pageTitle("Campuses", matches[0]?.loaderData?.campus) },
    { name: "robots", content: "noindex" },
  ];
}

/** Decision 0562: site admins only. */
export async function loader(args: Route.LoaderArgs) {
  const viewer = await getViewer(args);
  return data(await orNotFound(getCampusesPage(args.context.app, viewer)));
}

/** /admin/campuses (decision 0562): every school at a glance; each opens its own page to edit. */
export default function Campuses({ loaderData }: Route.ComponentProps) {
  return (
    <article aria-labelledby="campuses-title" className="flex min-w-0 flex-col gap-4">
      <ConsoleNav />
      <header>
        <h1 id="campuses-title" className="text-xl font-bold tracking-tight text-zinc-900 md:text-2xl">
          Campuses
        </h1>
        <p className="mt-1 text-sm text-zinc-600">
          Hosts come from CAMPUS_HOSTS and privacy from PUBLIC_CAMPUSES; domains, moderators and the report
          threshold are edited on each campus's page.
        </p>
      </header>
      <ul className="grid grid-cols-1 gap-3 md:grid-cols-2">
        {loaderData.campuses.map((campus) => (
          <li key={campus.id}>
            <Link
              to={`/admin/campuses/${campus.id}`}
              className="flex h-full flex-col gap-2 rounded-2xl border border-zinc-200 bg-white p-4 hover:border-zinc-300 focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              <span className="flex flex-wrap items-center gap-2">
                <span className="font-semibold text-zinc-900">{campus.name}</span>
                <Badge tone={campus.privacy === "public" ? "green" : "zinc"}>{campus.privacy}</Badge>
              </span>
              <span className="text-sm text-zinc-600">{campus.school}</span>
              <span className="text-sm break-all text-zinc-700">{campus.hosts[0]}</span>
              <span className="text-sm break-words text-zinc-700">
                {campus.domains.join(", ") || "No domains"}
              </span>
              <span className="text-sm text-zinc-600">
                {campus.members} members · {campus.verifiedMembers} verified · {campus.moderators}{" "}
                {campus.moderators === 1 ? "moderator" : "moderators"} · threshold{" "}
                {campus.reportHideThreshold}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </article>
  );
}
