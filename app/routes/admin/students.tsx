import { data, Form, Link } from "react-router";
import { ConsoleNav } from "~/app/components/admin/console-nav";
import { Badge, Panel } from "~/app/components/admin/console-parts";
import { pageTitle } from "~/app/components/shell/campus";
import { Button } from "~/app/components/ui/button";
import { orNotFound } from "~/app/lib/errors.server";
import { getViewer } from "~/app/lib/viewer.server";
import { ADMIN_MESSAGES } from "~/server/admin/errors.shared";
import { SEARCH_MAX } from "~/server/admin/schemas.shared";
import { getStudentSearchPage } from "~/server/admin/students";
import type { Route } from "./+types/students";

/** Decision 0140: an error answers in this page's panel (the 404 panel for anyone but a site admin). */
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [
    { title: pageTitle("Students", matches[0]?.loaderData?.campus) },
    { name: "robots", content: "noindex" },
  ];
}

/** Decision 0561: site admins only; the search is the address's `q`, bounded by the domain. */
export async function loader(args: Route.LoaderArgs) {
  const viewer = await getViewer(args);
  const q = new URL(args.request.url).searchParams.get("q");
  return data(await orNotFound(getStudentSearchPage(args.context.app, viewer, q)));
}

/** /admin/students (decision 0561): find an account by its exact e-mail, school e-mail, username or id. */
export default function Students({ loaderData }: Route.ComponentProps) {
  const { q, matches, message } = loaderData;
  return (
    <article aria-labelledby="students-title" className="flex min-w-0 flex-col gap-4">
      <ConsoleNav />
      <header>
        <h1 id="students-title" className="text-xl font-bold tracking-tight text-zinc-900 md:text-2xl">
          Students
        </h1>
        <p className="mt-1 text-sm text-zinc-600">
          Find an account by its exact e-mail, school e-mail, username or account id.
        </p>
      </header>
      <Form method="get" role="search" className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <label htmlFor="student-q" className="text-sm font-medium text-zinc-800">
            E-mail, username or id
          </label>
          <input
            id="student-q"
            name="q"
            type="search"
            defaultValue={q}
            maxLength={SEARCH_MAX}
            autoComplete="off"
            spellCheck={false}
            aria-describedby={message ? "student-q-error" : undefined}
            className="w-full rounded-lg border border-zinc-300 bg-white px-3 py-2.5 text-base text-zinc-900 outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-600/20"
          />
        </div>
        <Button type="submit">Find</Button>
      </Form>
      {message ? (
        <p id="student-q-error" role="alert" className="text-sm text-red-700">
          {message}
        </p>
      ) : null}
      <div aria-live="polite">
        {matches === null ? null : matches.length === 0 ? (
          <p className="text-[15px] text-zinc-600">{ADMIN_MESSAGES.noStudentFound}</p>
        ) : (
          <Panel
            title={`${matches.length} ${matches.length === 1 ? "account" : "accounts"}`}
            id="matches-title"
          >
            <ul className="-mx-4 divide-y divide-zinc-100 md:-mx-6">
              {matches.map((match) => (
                <li key={match.id}>
                  <Link
                    to={`/admin/students/${match.id}`}
                    className="flex flex-col gap-1 px-4 py-3 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-brand-600 md:px-6"
                  >
                    <span className="font-semibold text-zinc-900">
                      {match.firstName} {match.lastName}{" "}
                      <span className="font-normal text-zinc-500">@{match.username}</span>
                    </span>
                    <span className="text-sm break-all text-zinc-600">
                      {match.email}
                      {match.schoolEmail ? ` · ${match.schoolEmail}` : ""} · {match.campusId}
                    </span>
                    <span className="flex flex-wrap gap-2">
                      {match.verified ? null : <Badge tone="amber">Not verified</Badge>}
                      {match.banned ? <Badge tone="red">Banned</Badge> : null}
                      {match.deletedAt ? <Badge tone="zinc">Deleted</Badge> : null}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          </Panel>
        )}
      </div>
    </article>
  );
}
