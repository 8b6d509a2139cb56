import { Form, useSubmit } from "react-router";
import { buttonClass } from "~/app/components/ui/button";
import { CATEGORY_OPTIONS } from "~/server/posts/categories.shared";
import { CONDITION_LABELS, LISTING_CONDITIONS } from "~/server/posts/listing.shared";
import {
  LISTING_FILTERS_READY,
  SEARCH_SORT_LABELS,
  SEARCH_SORTS,
  type SearchFilters,
  type SearchTab,
} from "~/server/search/filters.shared";

const selectClass =
  "h-10 rounded-full border border-zinc-300 bg-white px-3 text-sm text-zinc-800 focus:border-brand-600 focus:ring-2 focus:ring-brand-600/20 focus:outline-none";

/**
 * Filters and sort (decision 0193): a GET form, so the address carries them and
 * a search can be shared; a change submits it (the Apply button does without JavaScript).
 */
export function FilterBar({ q, show, filters }: { q: string; show: SearchTab; filters: SearchFilters }) {
  const submit = useSubmit();
  const onChange = (event: React.ChangeEvent<HTMLFormElement>) => {
    if (event.target instanceof HTMLInputElement && event.target.type === "number") return;
    submit(event.currentTarget, { preventScrollReset: true });
  };
  const sorts = LISTING_FILTERS_READY ? SEARCH_SORTS : (["newest"] as const);
  return (
    <Form
      method="get"
      action="/search"
      onChange={onChange}
      aria-label="Filters"
      className="flex flex-wrap items-center gap-2 rounded-2xl border border-zinc-200 bg-white p-3"
    >
      <input type="hidden" name="q" value={q} />
      {show !== "latest" ? <input type="hidden" name="show" value={show} /> : null}
      <label className="flex min-w-0 basis-full items-center gap-2 text-sm text-zinc-700 xs:max-w-72 xs:flex-1 xs:basis-auto">
        <span className="sr-only">Category</span>
        <select
          name="category"
          defaultValue={filters.category ?? "all"}
          key={filters.category ?? "all"}
          className={`${selectClass} w-full min-w-0`}
        >
          {CATEGORY_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.text}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-2 text-sm text-zinc-700">
        <span className="sr-only">Sort by</span>
        <select name="sort" defaultValue={filters.sort} key={filters.sort} className={selectClass}>
          {sorts.map((sort) => (
            <option key={sort} value={sort}>
              {SEARCH_SORT_LABELS[sort]}
            </option>
          ))}
        </select>
      </label>
      {LISTING_FILTERS_READY ? (
        <>
          <PriceBound name="min_price" label="Min $" cents={filters.minPriceCents} />
          <PriceBound name="max_price" label="Max $" cents={filters.maxPriceCents} />
          <label className="flex items-center gap-2 text-sm text-zinc-700">
            <span className="sr-only">Condition</span>
            <select name="condition" defaultValue={filters.condition ?? ""} className={selectClass}>
              <option value="">Any condition</option>
              {LISTING_CONDITIONS.map((condition) => (
                <option key={condition} value={condition}>
                  {CONDITION_LABELS[condition]}
                </option>
              ))}
            </select>
          </label>
          <label className="flex items-center gap-2 text-sm text-zinc-700">
            <input type="checkbox" name="sold" value="1" defaultChecked={filters.includeSold} />
            Show sold
          </label>
        </>
      ) : null}
      <button type="submit" className={buttonClass("secondary", "h-10")}>
        Apply
      </button>
    </Form>
  );
}

/** One end of the price range, in dollars (the filter keeps cents). */
function PriceBound({ name, label, cents }: { name: string; label: string; cents: number | null }) {
  return (
    <label className="flex items-center gap-1 text-sm text-zinc-700">
      {label}
      <input
        type="number"
        name={name}
        min={0}
        inputMode="numeric"
        defaultValue={cents === null ? "" : cents / 100}
        className={`${selectClass} w-20`}
      />
    </label>
  );
}
