import { useEffect, useId, useRef, useState } from "react";
import { useFetcher, useLocation, useNavigate } from "react-router";
import { Avatar } from "~/app/components/ui/avatar";
import { SearchIcon } from "~/app/components/ui/icons";
import { useAdoptTypedValue } from "~/app/lib/hydrated";
import { searchHref } from "~/server/search/filters.shared";
import type { SearchSuggestions } from "~/server/search/suggestions";
import { searchPlaceholder } from "./campus";

/** Decision 0194: suggestions wait this long after the last key (the research's 150 ms debounce). */
const SUGGEST_DELAY_MS = 150;

interface Option {
  id: string;
  kind: "popular" | "recent" | "completion" | "person";
  label: string;
  href: string;
  person?: SearchSuggestions["people"][number];
}

function optionsOf(s: SearchSuggestions | null): Option[] {
  if (!s) return [];
  return [
    ...s.popular.map((text) => ({
      id: `p-${text}`,
      kind: "popular" as const,
      label: text,
      href: searchHref(text),
    })),
    ...s.completions.map((text) => ({
      id: `c-${text}`,
      kind: "completion" as const,
      label: text,
      href: searchHref(text),
    })),
    ...s.people.map((person) => ({
      id: `u-${person.id}`,
      kind: "person" as const,
      label: `${person.firstName} ${person.lastName}`,
      href: `/${person.username}`,
      person,
    })),
    ...s.recent.map((r) => ({
      id: `r-${r.text}`,
      kind: "recent" as const,
      label: r.text,
      href: searchHref(r.text),
    })),
  ];
}

function withoutRemoved(
  s: SearchSuggestions | null,
  removed: ReadonlySet<string> | "all",
): SearchSuggestions | null {
  if (!s || (removed !== "all" && removed.size === 0)) return s;
  return { ...s, recent: removed === "all" ? [] : s.recent.filter((r) => !removed.has(r.text)) };
}

/**
 * The header search (spec 1 §1, §2 'Search box dropdown'; decision 0194): a GET
 * form, so it works before JavaScript loads; with it, a combobox (WAI-ARIA pattern) whose
 * list shows popular searches (first 4) and 'My Recent' with Clear all while empty, and
 * suggestions as the person types: popular and recent texts, completed words, people.
 * Arrow keys move, Enter opens, Escape closes; the count is announced.
 * The generic instance searches schools at /search_schools (spec 1 §2 'Find Your School').
 */
export function SearchBox({ campus }: { campus: { name: string; generic: boolean } }) {
  const location = useLocation();
  const action = campus.generic ? "/search_schools" : "/search";
  const placeholder = campus.generic ? "Search schools" : searchPlaceholder(campus);
  const current = location.pathname === action ? (new URLSearchParams(location.search).get("q") ?? "") : "";
  // Find Your School has its own search-as-you-type box; a second 'Search schools' box would confuse.
  if (campus.generic && location.pathname === action) return null;
  return (
    <SearchCombobox
      key={`${location.pathname}?${current}`}
      action={action}
      placeholder={placeholder}
      initial={current}
      suggest={!campus.generic}
    />
  );
}

function SearchCombobox({
  action,
  placeholder,
  initial,
  suggest,
}: {
  action: string;
  placeholder: string;
  initial: string;
  suggest: boolean;
}) {
  const navigate = useNavigate();
  const history = useFetcher();
  const listId = useId();
  const [text, setText] = useState(initial);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [answer, setAnswer] = useState<SearchSuggestions | null>(null);
  // Removed here, so hidden from every answer after, including one already on its way that the
  // server read before the removal reached it.
  const [removed, setRemoved] = useState<ReadonlySet<string> | "all">(() => new Set());
  const suggestions = withoutRemoved(answer, removed);
  const running = useRef<AbortController | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const field = useRef<HTMLInputElement>(null);
  useAdoptTypedValue(field, text, (typed, focused) => {
    setText(typed);
    if (focused) setOpen(true);
  });

  useEffect(() => {
    if (!suggest || !open) return;
    const timer = setTimeout(() => {
      running.current?.abort();
      const controller = new AbortController();
      running.current = controller;
      fetch(`/search/data?kind=suggest&q=${encodeURIComponent(text)}`, {
        signal: controller.signal,
        headers: { Accept: "application/json" },
      })
        .then((response) => (response.ok ? (response.json() as Promise<SearchSuggestions>) : null))
        .then((fetched) => {
          if (running.current !== controller) return;
          setAnswer(fetched);
          setActive(-1);
        })
        .catch(() => {});
    }, SUGGEST_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, open, suggest]);
  useEffect(() => () => running.current?.abort(), []);

  const options = optionsOf(suggestions);
  const expanded = open && suggestions !== null && (options.length > 0 || suggestions.recent.length > 0);
  const activeOption = active >= 0 ? options[active] : undefined;
  const optionId = (i: number) => `${listId}-o${i}`;

  const go = (href: string) => {
    setOpen(false);
    navigate(href);
  };
  const removeRecent = (textToRemove: string) => {
    history.submit(
      { intent: "remove-recent-search", text: textToRemove },
      { method: "post", action: "/search" },
    );
    setRemoved((before) => (before === "all" ? before : new Set(before).add(textToRemove)));
  };
  const clearAll = () => {
    history.submit({ intent: "clear-recent-searches" }, { method: "post", action: "/search" });
    setRemoved("all");
  };

  const groups: { title: string; kinds: Option["kind"][] }[] = [
    { title: "Popular", kinds: ["popular"] },
    { title: "Suggestions", kinds: ["completion"] },
    { title: "People", kinds: ["person"] },
    { title: "My Recent", kinds: ["recent"] },
  ];

  return (
    <search className="block w-full">
      <div ref={box} className="relative w-full">
        <form
          method="get"
          action={action}
          className="relative w-full"
          onSubmit={(event) => {
            if (activeOption) {
              event.preventDefault();
              go(activeOption.href);
            } else setOpen(false);
          }}
        >
          <label htmlFor="site-search" className="sr-only">
            {placeholder}
          </label>
          <SearchIcon className="pointer-events-none absolute top-1/2 left-3.5 size-[18px] -translate-y-1/2 text-zinc-500" />
          <input
            ref={field}
            id="site-search"
            type="search"
            name="q"
            value={text}
            placeholder={placeholder}
            autoComplete="off"
            enterKeyHint="search"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={expanded}
            aria-controls={listId}
            aria-activedescendant={activeOption ? optionId(active) : undefined}
            onChange={(event) => {
              setText(event.target.value);
              setOpen(true);
            }}
            onFocus={() => setOpen(true)}
            onBlur={(event) => {
              if (!box.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
            }}
            onKeyDown={(event) => {
              if (!suggest) return;
              if (event.key === "ArrowDown" || event.key === "ArrowUp") {
                event.preventDefault();
                setOpen(true);
                if (options.length === 0) return;
                const step = event.key === "ArrowDown" ? 1 : -1;
                // -1 is the text box itself; the highlight wraps around (spec 1 §5 'wrap-around').
                setActive((i) => {
                  const next = i + step;
                  if (next >= options.length) return -1;
                  if (next < -1) return options.length - 1;
                  return next;
                });
              } else if (event.key === "Escape") {
                if (expanded) {
                  event.preventDefault();
                  setOpen(false);
                  setActive(-1);
                }
              }
            }}
            className="h-10 w-full rounded-full border border-transparent bg-zinc-100 pr-4 pl-10 text-[15px] text-zinc-900 placeholder:text-zinc-500 hover:bg-zinc-200/70 focus:border-brand-600 focus:bg-white focus:ring-2 focus:ring-brand-600/20 focus:outline-none"
          />
        </form>
        {suggest ? (
          <p className="sr-only" aria-live="polite">
            {expanded ? `${options.length} suggestions` : ""}
          </p>
        ) : null}
        {suggest ? (
          <div
            className={`absolute inset-x-0 top-12 z-50 max-h-[70vh] overflow-y-auto rounded-2xl border border-zinc-200 bg-white py-2 shadow-lg ${expanded ? "" : "hidden"}`}
          >
            <div id={listId} role="listbox" aria-label="Search suggestions">
              {groups.map((group) => {
                const inGroup = options
                  .map((option, index) => ({ option, index }))
                  .filter(({ option }) => group.kinds.includes(option.kind));
                const isRecent = group.kinds.includes("recent");
                if (inGroup.length === 0) return null;
                return (
                  <div key={group.title} role="presentation">
                    <div className="flex items-center justify-between px-4 pt-2 pb-1">
                      <span
                        className="text-xs font-semibold tracking-wide text-zinc-500 uppercase"
                        aria-hidden="true"
                      >
                        {group.title}
                      </span>
                      {isRecent ? (
                        <button
                          type="button"
                          onMouseDown={(event) => event.preventDefault()}
                          onClick={clearAll}
                          className="text-xs font-semibold text-brand-700 hover:underline"
                        >
                          Clear all
                        </button>
                      ) : null}
                    </div>
                    {/* biome-ignore lint/a11y/useSemanticElements: a listbox's group (WAI-ARIA combobox pattern), not a form's fieldset. */}
                    <div role="group" aria-label={group.title}>
                      {inGroup.map(({ option, index }) => (
                        <div
                          key={option.id}
                          className={`flex items-center pr-2 ${index === active ? "bg-zinc-100" : ""}`}
                        >
                          {/* biome-ignore lint/a11y/useFocusableInteractive: focus stays in the text box; aria-activedescendant points here (combobox pattern). */}
                          {/* biome-ignore lint/a11y/useKeyWithClickEvents: the text box's arrow keys and Enter choose options. */}
                          <div
                            id={optionId(index)}
                            role="option"
                            aria-selected={index === active}
                            onMouseDown={(event) => event.preventDefault()}
                            onClick={() => go(option.href)}
                            onMouseEnter={() => setActive(index)}
                            className="flex min-w-0 flex-1 cursor-pointer items-center gap-3 py-2 pl-4 text-[15px] text-zinc-800"
                          >
                            {option.person ? (
                              <Avatar person={option.person} size="sm" />
                            ) : (
                              <SearchIcon className="size-4 shrink-0 text-zinc-400" />
                            )}
                            <span className="min-w-0 flex-1 truncate">
                              {option.label}
                              {option.person ? (
                                <span className="ml-2 text-sm text-zinc-500">@{option.person.username}</span>
                              ) : null}
                            </span>
                          </div>
                          {option.kind === "recent" ? (
                            <button
                              type="button"
                              aria-label={`Remove ${option.label}`}
                              onMouseDown={(event) => event.preventDefault()}
                              onClick={() => removeRecent(option.label)}
                              className="flex size-8 shrink-0 items-center justify-center rounded-full text-lg text-zinc-400 hover:bg-zinc-200 hover:text-zinc-700"
                            >
                              <span aria-hidden="true">×</span>
                            </button>
                          ) : null}
                        </div>
                      ))}
                    </div>
                  </div>
                );
              })}
            </div>
          </div>
        ) : null}
      </div>
    </search>
  );
}
