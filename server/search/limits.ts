// Shared with the browser: no server imports.

/** spec 2 §9 'search hits 10; popular searches fetched 14, shown 4', and this project's own bounds (decision 0192). */
export const SEARCH_LIMITS = {
  /** Posts or people per page of /search. */
  hits: 10,
  /** Popular searches listed on /search without a text. */
  popular: 14,
  /** Popular searches shown first in the header's dropdown. */
  popularInDropdown: 4,
  /** 'My Recent' in the dropdown. */
  recentInDropdown: 8,
  /** People among the dropdown's suggestions. */
  peopleInDropdown: 3,
  /** Word completions among the dropdown's suggestions. */
  termsInDropdown: 5,
  /** A popular search is one at least this many different people searched (decision 0192). */
  popularMinPeople: 3,
  /** History kept per person and campus: the oldest go beyond this. */
  historyPerPerson: 50,
  /** spec 1 §7 new-message search: runs only when the text is longer than one character. */
  peopleMinChars: 2,
} as const;

/** spec 2 §8 'Recent Search Removed; Search History Cleared'. */
export const SEARCH_MESSAGES = {
  recentRemoved: "Recent Search Removed",
  historyCleared: "Search History Cleared",
} as const;
