import { useEffect, useState } from "react";
import { useFetcher, useSearchParams } from "react-router";
import { campusChoice } from "~/app/components/schools/campus-choice";
import { SchoolModal, type SchoolOption } from "~/app/components/schools/school-modal";
import { SchoolResults, SchoolSearchForm } from "~/app/components/schools/school-search";
import { pageTitle } from "~/app/components/shell/campus";
import { campusOriginOf } from "~/app/lib/campus-origin.server";
import { getViewer } from "~/app/lib/viewer.server";
import { type CampusHit, FindSchoolQuerySchema, schoolHit, searchCampuses } from "~/server/campuses/search";
import { normaliseSearchText } from "~/server/search/text.shared";
import type { Route } from "./+types/search-schools";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

/**
 * /search_schools, Find Your School (spec 1 §2, spec 2 §2 'Search'): `q` is the
 * text typed, `campus` a chosen campus id (opens its modal). Each hit carries
 * the modal's button for this viewer, so choosing one needs no request.
 */
export async function loader(args: Route.LoaderArgs) {
  const { app, campuses } = args.context;
  const url = new URL(args.request.url);
  const query = FindSchoolQuerySchema.parse({
    q: url.searchParams.get("q") ?? undefined,
    campus: url.searchParams.get("campus") ?? undefined,
  });
  const [viewer, hits] = await Promise.all([getViewer(args), searchCampuses(app.db, query.q)]);
  const option = (hit: CampusHit): SchoolOption => {
    const campusUrl = campusOriginOf(args.request, args.context, hit.id);
    return { ...hit, choice: campusChoice(viewer, hit.id, campusUrl) };
  };
  const chosen = query.campus === null ? null : schoolHit(campuses.get(query.campus));
  return {
    q: query.q,
    hits: hits.map(option),
    /** The campus of `?campus=`: its option, or null when the id names no school ('Something went wrong'). */
    chosen: query.campus === null ? null : { id: query.campus, school: chosen ? option(chosen) : null },
  };
}

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Find Your School", matches[0]?.loaderData?.campus) }];
}

const TYPING_DELAY_MS = 150;

export default function SearchSchools({ loaderData }: Route.ComponentProps) {
  const fetcher = useFetcher<typeof loader>();
  const [, setSearchParams] = useSearchParams();
  const [text, setText] = useState(loaderData.q);
  const [picked, setPicked] = useState<string | null>(loaderData.chosen?.id ?? null);

  // A new page load or form submission brings its own text and choice.
  useEffect(() => setText(loaderData.q), [loaderData.q]);
  useEffect(() => setPicked(loaderData.chosen?.id ?? null), [loaderData.chosen?.id]);

  // Search as you type: the same loader through a fetcher, once typing pauses.
  const typed = normaliseSearchText(text);
  const { load } = fetcher;
  useEffect(() => {
    if (typed === loaderData.q) return;
    const timer = setTimeout(() => {
      void load(`/search_schools?${new URLSearchParams({ q: typed })}`);
    }, TYPING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed, loaderData.q, load]);

  // The freshest results for the text in the box; while a search runs, the previous ones.
  const results =
    [fetcher.data, loaderData].find((data) => data?.q === typed) ??
    (fetcher.data && fetcher.state === "loading" ? fetcher.data : loaderData);

  const school =
    picked === null
      ? null
      : (results.hits.find((hit) => hit.id === picked) ??
        loaderData.hits.find((hit) => hit.id === picked) ??
        (loaderData.chosen?.id === picked ? loaderData.chosen.school : null));

  const close = () => {
    setPicked(null);
    if (loaderData.chosen) {
      setSearchParams(
        (params) => {
          params.delete("campus");
          return params;
        },
        { replace: true, preventScrollReset: true },
      );
    }
  };

  return (
    <div className="flex flex-col gap-3">
      <section className="rounded-2xl border border-zinc-200 bg-white p-5 md:p-6">
        <h1 className="text-xl font-bold tracking-tight text-zinc-900 md:text-2xl">Find Your School</h1>
        <p className="mt-1 text-[15px] text-zinc-600">
          Every campus has its own community. Find yours to buy and sell with students at your school.
        </p>
        <SchoolSearchForm value={text} onChange={setText} className="mt-4" />
      </section>
      <SchoolResults
        query={results.q}
        hits={results.hits}
        busy={fetcher.state === "loading"}
        onPick={(hit) => setPicked(hit.id)}
      />
      <SchoolModal
        open={picked !== null}
        onOpenChange={(open) => {
          if (!open) close();
        }}
        school={school}
      />
    </div>
  );
}
