// Name rules of spec 1 §3 and §5, pure so that the register form checks them in the browser too.

/** spec 1 §5: names hold only letters, apostrophes and spaces (letters of any script; decision 0020). */
export const NAME_CHARACTERS = /^[\p{L}\p{M}' ]+$/u;

/** spec 1 §9: first and last name at most 20 characters each. */
export const MAX_NAME_LENGTH = 20;

export const NAME_MESSAGES = {
  required: "Full name is required",
  firstTooShort: "Name is Invalid",
  characters: "Your Name is Invalid.",
  // Our wording: the spec caps names at 20 characters but gives no message.
  tooLong: "First and last name must be 20 characters or fewer.",
} as const;

/** The words of a full name: first word is the first name, last word the last name (middle words dropped). */
export function splitFullName(fullName: string): { first: string; last: string } | null {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  const first = words[0];
  const last = words.length > 1 ? words[words.length - 1] : undefined;
  if (!first || !last) return null;
  return { first, last };
}

/** The spec 1 §5 message for a full name, or null when it is acceptable. */
export function fullNameProblem(fullName: string): string | null {
  const trimmed = fullName.trim();
  if (trimmed === "") return NAME_MESSAGES.required;
  if (!NAME_CHARACTERS.test(trimmed)) return NAME_MESSAGES.characters;
  const parts = splitFullName(trimmed);
  if (!parts) return NAME_MESSAGES.required;
  if ([...parts.first.replaceAll("'", "")].length < 2) return NAME_MESSAGES.firstTooShort;
  if ([...parts.first].length > MAX_NAME_LENGTH || [...parts.last].length > MAX_NAME_LENGTH) {
    return NAME_MESSAGES.tooLong;
  }
  if (!/\p{L}/u.test(parts.last)) return NAME_MESSAGES.characters;
  return null;
}

export function capitalise(word: string): string {
  const lower = word.toLocaleLowerCase("en-US");
  const firstLetter = lower.search(/\p{L}/u);
  if (firstLetter < 0) return lower;
  return (
    lower.slice(0, firstLetter) +
    lower.charAt(firstLetter).toLocaleUpperCase("en-US") +
    lower.slice(firstLetter + 1)
  );
}

/**
 * spec 1 §3: first_name capitalised, last_name stored as its initial plus a period
 * ('Smith' → 'S.'). Call only with a name fullNameProblem() accepts.
 */
export function normaliseNames(fullName: string): { firstName: string; lastName: string } {
  const parts = splitFullName(fullName);
  if (!parts) throw new Error("normaliseNames needs a first and a last name");
  const initial = parts.last.match(/\p{L}/u)?.[0] ?? parts.last.charAt(0);
  return { firstName: capitalise(parts.first), lastName: `${initial.toLocaleUpperCase("en-US")}.` };
}

/**
 * spec 1 §5: username is first plus last name, lower case, non-alphanumerics removed.
 * Built from the stored last name (its initial, decision 0020). Letters outside a–z are
 * folded to their base letter first (é → e) so that 'José' still gives 'jose'.
 */
export function usernameBase(firstName: string, lastName: string): string {
  const base = `${firstName}${lastName}`
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
  return base.length > 0 ? base : "user";
}

/** spec 1 §5 'Sign-up from Google': the names used when a display name has none. */
export const DISPLAY_NAME_DEFAULTS = { first: "anonymous", last: "user" } as const;

/**
 * spec 1 §5 'Sign-up from Google': the words of a display name, split on space, period,
 * comma and hyphen; words with digits are dropped. The first word is the first name and
 * the last word the last name; with three or more words the ones between are the middle
 * name (not stored). Missing names default to 'anonymous' and 'user'. Characters other
 * than letters and apostrophes are removed from the words first, so the stored names
 * follow the name rules of sign-up (decision 0060).
 */
export function splitDisplayName(displayName: string | null | undefined): {
  first: string;
  middle: string | null;
  last: string;
} {
  const words = (displayName ?? "")
    .split(/[\s.,-]+/u)
    .filter((word) => !/\p{N}/u.test(word))
    .map((word) => word.replace(/[^\p{L}\p{M}']/gu, ""))
    .filter((word) => /\p{L}/u.test(word));
  const first = words[0] ?? DISPLAY_NAME_DEFAULTS.first;
  const last =
    words.length > 1 ? (words[words.length - 1] ?? DISPLAY_NAME_DEFAULTS.last) : DISPLAY_NAME_DEFAULTS.last;
  const middle = words.length > 2 ? words.slice(1, -1).join(" ") : null;
  return { first, middle, last };
}

/** The stored names (spec 1 §3: first capitalised, at most 20 characters; last as its initial) of a display name. */
export function namesFromDisplayName(displayName: string | null | undefined): {
  firstName: string;
  lastName: string;
} {
  const { first, last } = splitDisplayName(displayName);
  const { firstName, lastName } = normaliseNames(`${first} ${last}`);
  return { firstName: [...firstName].slice(0, MAX_NAME_LENGTH).join(""), lastName };
}
