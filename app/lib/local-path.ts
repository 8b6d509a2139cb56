// Where a redirect may lead when the target comes from input (a form's returnTo, a stored
// history): a path on this site, never another (docs/product/outages-and-errors.md). Pure: used by server and browser.

/** Longer targets are not paths our pages produce. */
const MAX_LOCAL_PATH_LENGTH = 2000;

/**
 * C0 controls, DEL and C1 controls. Browsers drop tabs and newlines anywhere in a URL
 * (`/\t/evil.example` becomes `//evil.example`) and trim the others at the ends, so a target
 * holding any of them is refused rather than cleaned.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters refused.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * docs/product/outages-and-errors.md: what the address bar gives (`location.pathname + location.search`) is printable
 * ASCII, everything else percent-encoded. A raw character past it (an ideographic space,
 * `/\u3000/x`) cannot go in a Location header: the save was made, then the redirect threw
 * (a 500). Checked on the value as sent only: once decoded, `/search?q=%E6%97%A5` is fine.
 */
const NOT_PRINTABLE_ASCII = /[^\u0021-\u007e]/;

/** Browsers read `\` as `/` in http(s) URLs, so `/\evil.example` is `//evil.example`. */
function hasHostilePath(value: string): boolean {
  return CONTROL.test(value) || value.includes("\\") || !value.startsWith("/") || value.startsWith("//");
}

/** The value, percent-decoded once; null when it does not decode. */
function decodedOnce(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

const PROBE_ORIGIN = "http://local-path.invalid";

/**
 * The value when it is a path on this site (`/post/1?x=2#c`), else null: not a string, empty,
 * too long, a control character, backslash, space or non-ASCII character anywhere, not starting with exactly one `/`
 * (`//evil.example`, `https://evil.example`, `javascript:`), the same once percent-decoded
 * (`/%2F%2Fevil.example`, `/%09/evil.example`), or anything a URL parser would resolve to
 * another origin.
 */
export function localPath(value: unknown): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_LOCAL_PATH_LENGTH) return null;
  if (hasHostilePath(value) || NOT_PRINTABLE_ASCII.test(value)) return null;
  const decoded = decodedOnce(value);
  if (decoded === null || hasHostilePath(decoded)) return null;
  try {
    if (new URL(value, PROBE_ORIGIN).origin !== PROBE_ORIGIN) return null;
  } catch {
    return null;
  }
  return value;
}
