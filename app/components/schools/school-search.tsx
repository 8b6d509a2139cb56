import { useRef } from "react";
import { Form, Link } from "react-router";
import { socialHandle, socialUrl } from "~/app/components/shell/campus";
import { ChevronRightIcon, SearchIcon } from "~/app/components/ui/icons";
import { useAdoptTypedValue } from "~/app/lib/hydrated";
import { schoolPlace } from "./campus-choice";
import type { SchoolOption } from "./school-modal";

interface SchoolSearchFormProps {
  value: string;
  onChange(value: string): void;
  className?: string;
}

/**
 * The 'Search schools' box (spec 1 §2 'Find Your School'). A GET form, so
 * Enter searches before JavaScript loads; with it, the page searches as you type.
 */
export function SchoolSearchForm({ value, onChange, className = "" }: SchoolSearchFormProps) {
  const field = useRef<HTMLInputElement>(null);
  useAdoptTypedValue(field, value, onChange);
  return (
    <search className={`block ${className}`}>
      <Form method="get" action="/search_schools" replace preventScrollReset className="relative">
        <label htmlFor="school-search" className="sr-only">
          Search schools
        </label>
        <SearchIcon className="pointer-events-none absolute top-1/2 left-4 size-5 -translate-y-1/2 text-zinc-500" />
        <input
          ref={field}
          id="school-search"
          type="search"
          name="q"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          placeholder="Search schools"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          enterKeyHint="search"
          maxLength={100}
          aria-controls="school-results"
          className="h-12 w-full rounded-full border border-zinc-300 bg-white pr-4 pl-12 text-base text-zinc-900 placeholder:text-zinc-500 focus:border-brand-600 focus:ring-2 focus:ring-brand-600/20 focus:outline-none"
        />
      </Form>
    </search>
  );
}

interface SchoolResultsProps {
  query: string;
  hits: SchoolOption[];
  busy: boolean;
  onPick(hit: SchoolOption): void;
}

/** The hits, best first: logo, name and school, then city, state and country (spec 1 §2). */
export function SchoolResults({ query, hits, busy, onPick }: SchoolResultsProps) {
  const social = { name: "Campus Buy Sell", generic: true };
  const summary =
    hits.length === 0
      ? `No schools match "${query}".`
      : query
        ? `${hits.length} ${hits.length === 1 ? "school matches" : "schools match"} "${query}".`
        : `${hits.length} schools`;
  return (
    <section
      id="school-results"
      aria-labelledby="school-results-title"
      aria-busy={busy || undefined}
      className="rounded-2xl border border-zinc-200 bg-white"
    >
      <h2 id="school-results-title" className="sr-only">
        Schools
      </h2>
      <p aria-live="polite" className="sr-only">
        {summary}
      </p>
      {hits.length === 0 ? (
        <div className="px-6 py-10 text-center">
          <p className="font-semibold text-zinc-900">No schools match &ldquo;{query}&rdquo;</p>
          <p className="mx-auto mt-1 max-w-sm text-sm text-zinc-600">
            Check the spelling, or try the school's city. Still missing? Send us a direct message on Instagram
            at{" "}
            <a
              href={socialUrl(social)}
              target="_blank"
              rel="noopener noreferrer"
              className="font-medium text-brand-700 underline underline-offset-2"
            >
              @{socialHandle(social)}
            </a>{" "}
            and we will look into adding it.
          </p>
        </div>
      ) : (
        <ul className={`divide-y divide-zinc-100 transition-opacity ${busy ? "opacity-70" : ""}`}>
          {hits.map((hit) => (
            <li key={hit.id}>
              <Link
                to={`/search_schools?${new URLSearchParams({ ...(query ? { q: query } : {}), campus: hit.id })}`}
                replace
                preventScrollReset
                onClick={(event) => {
                  if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
                  event.preventDefault();
                  onPick(hit);
                }}
                className="flex items-center gap-3.5 px-4 py-3 first:rounded-t-2xl last:rounded-b-2xl hover:bg-zinc-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600 md:px-5"
              >
                {hit.logo ? (
                  <img src={hit.logo} alt="" width={44} height={44} className="size-11 shrink-0 rounded-xl" />
                ) : null}
                <span className="flex min-w-0 flex-1 flex-col">
                  <span className="font-semibold text-zinc-900">{hit.school ?? hit.name}</span>
                  <span className="text-sm text-zinc-500">
                    {hit.school ? <span className="font-medium text-zinc-700">{hit.name} · </span> : null}
                    {schoolPlace(hit)}
                  </span>
                </span>
                <ChevronRightIcon className="size-5 shrink-0 text-zinc-400" />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
