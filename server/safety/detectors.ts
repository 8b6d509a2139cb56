import type { Token } from "./normalise";

/**
 * The named detectors a rule's pattern may use (decision 0651): phone numbers, e-mail addresses,
 * links, links to URL shorteners, and links to look-alikes of the site's or a payment service's
 * domain. Each reads the normalised text in one pass with fixed, bounded expressions (no pattern
 * a person typed), so a 10,000-character message costs linear time.
 */

/**
 * Top-level domains a bare 'word.tld' is read as a link with. Deliberately without 'js', 'ts',
 * 'py', 'md', 'g', 'e' and the like, so 'node.js', 'e.g.', 'i.e.' and file names stay text.
 */
const LINK_TLDS = new Set(
  (
    "com net org edu gov io co me ly gl gd to app dev xyz info biz us uk ca de fr ru cn in link site " +
    "online shop store top club live life click pw tk ml ga cf gq cc ws su page web help support " +
    "email pay money cash finance bank icu vip win bid loan work buzz rest fun space tech website " +
    "today world best am fm tv gg sh at cx im is lt li ai ae tw ws"
  ).split(" "),
);

/** URL shorteners (their links hide where they go). */
const SHORTENERS = new Set(
  (
    "bit.ly bitly.com tinyurl.com t.co goo.gl ow.ly is.gd buff.ly rebrand.ly cutt.ly shorturl.at rb.gy " +
    "tiny.cc t.ly s.id bl.ink lnkd.in v.gd qr.ae short.io shorte.st adf.ly bc.vc soo.gd clck.ru " +
    "u.to x.co tiny.one urlz.fr 2u.pm rebrandly.com t.me"
  ).split(" "),
);

/**
 * Services scams borrow the names of, with the domains that are really theirs. A link whose
 * domain spells one of these names (or is one letter away) on another domain is a look-alike.
 */
const BRANDS: Readonly<Record<string, readonly string[]>> = {
  campusbuysell: [],
  paypal: ["paypal.com", "paypal.me"],
  venmo: ["venmo.com"],
  zelle: ["zellepay.com", "zelle.com"],
  cashapp: ["cash.app", "cashapp.com"],
  google: ["google.com", "goo.gl"],
  apple: ["apple.com"],
  icloud: ["icloud.com"],
  amazon: ["amazon.com"],
  facebook: ["facebook.com"],
  microsoft: ["microsoft.com"],
};

/** A link found in a text: its host, normalised. */
export interface FoundLink {
  host: string;
}

const SCHEME_OR_WWW = /(?:https?:\/\/|www\.)([a-z0-9.-]{1,253})/g;
// Starts only where a word starts (the look-behind), so each position is tried once.
const BARE_DOMAIN = /(?<![a-z0-9@._%+-])((?:[a-z0-9-]{1,63}\.){1,4}([a-z]{2,12}))(?![a-z0-9-]|\.[a-z0-9])/g;

/**
 * The links of a normalised text: with a scheme or 'www.', a bare domain with a known top-level
 * domain ('bit.ly/x', 'venmo-pay.net'), or the spelled-out 'paypal dot com'.
 */
export function findLinks(normalised: string, tokens: readonly Token[]): FoundLink[] {
  const links: FoundLink[] = [];
  for (const match of normalised.matchAll(SCHEME_OR_WWW)) {
    links.push({ host: stripHost(match[1] ?? "") });
  }
  for (const match of normalised.matchAll(BARE_DOMAIN)) {
    const host = stripHost(match[1] ?? "");
    const tld = match[2] ?? "";
    if (!LINK_TLDS.has(tld) && !SHORTENERS.has(host)) continue;
    const labels = host.split(".");
    // 'a.m.', 'p.m.', 'e.g.': a one-letter name is a link only when it is a known shortener.
    if ((labels[labels.length - 2]?.length ?? 0) < 2 && !SHORTENERS.has(host)) continue;
    if (labels.some((label) => label === "" || /^\d+$/.test(label)) && !/[a-z]/.test(host)) continue;
    links.push({ host });
  }
  // 'paypal dot com': a word, 'dot', a top-level domain.
  for (let index = 0; index + 2 < tokens.length; index++) {
    const dot = tokens[index + 1];
    const tld = tokens[index + 2];
    if (dot?.text === "dot" && tld && LINK_TLDS.has(tld.text) && tld.text.length >= 2) {
      links.push({ host: `${tokens[index]?.text}.${tld.text}` });
    }
  }
  return links;
}

function stripHost(host: string): string {
  return host.replace(/^www\./, "").replace(/\.+$/, "");
}

/** The last two labels ('login.venmo-help.com' → 'venmo-help.com'). */
function registrable(host: string): string {
  return host.split(".").slice(-2).join(".");
}

export function isShortener(host: string): boolean {
  return SHORTENERS.has(host) || SHORTENERS.has(registrable(host));
}

/**
 * A look-alike: a domain that is not the site's own (`ownDomains`) nor the service's, whose name
 * contains a brand ('venmo-refunds.com', 'campusbuysell-support.net') or is one letter from it
 * ('paypa1.com', 'venrno.com' after normalisation reads 'venrno': two letters, not caught; 'vemno').
 */
export function isLookAlike(host: string, ownDomains: readonly string[]): boolean {
  const domain = registrable(host);
  if (ownDomains.some((own) => host === own || host.endsWith(`.${own}`))) return false;
  const name = domain.split(".")[0]?.replace(/-/g, "") ?? "";
  const joined = host.split(".").slice(0, -1).join("").replace(/-/g, "");
  for (const [brand, official] of Object.entries(BRANDS)) {
    if (official.some((real) => host === real || host.endsWith(`.${real}`))) return false;
    if (joined.includes(brand)) return true;
    if (brand.length >= 5 && name.length >= 4 && withinOneEdit(name, brand)) return true;
  }
  return false;
}

/** Levenshtein distance ≤ 1 (one letter changed, added or removed), in linear time. */
function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return false;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (a.length < b.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}

// A local part, '@', and a domain with a dot, tried only around each '@' (so a long text without
// one costs a single indexOf); segments cannot overlap ('.' is not in the classes).
const EMAIL_AT = /[a-z0-9_%+-]@[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,4}\.[a-z]{2,12}(?![a-z])/;
const MAIL_PROVIDERS = new Set([
  "gmail",
  "yahoo",
  "outlook",
  "hotmail",
  "icloud",
  "aol",
  "proton",
  "protonmail",
]);

/** An e-mail address, or one spelled out: 'name at gmail', 'name (at) gmail dot com'. */
export function hasEmail(normalised: string, tokens: readonly Token[]): boolean {
  for (let at = normalised.indexOf("@"); at !== -1; at = normalised.indexOf("@", at + 1)) {
    if (at > 0 && EMAIL_AT.test(normalised.slice(at - 1, at + 340))) return true;
  }
  for (let index = 1; index + 1 < tokens.length; index++) {
    if (tokens[index]?.text === "at" && MAIL_PROVIDERS.has(tokens[index + 1]?.text ?? "")) return true;
  }
  return false;
}

/**
 * Phone numbers: a run of digits and phone punctuation (spaces, dots, dashes, brackets, '+') that
 * holds 10 digits with a North American area code (2–9 first), 11 starting with 1, or 8–15 after
 * a '+'. Prices ('$250'), times ('3:30'), course numbers ('CS 2334'), dates and ISBNs do not add up
 * to one: a colon, slash or letter ends the run.
 */
export function hasPhone(normalised: string): boolean {
  const text = normalised;
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    const isDigit = code >= 48 && code <= 57;
    if (!isDigit && text[index] !== "+" && text[index] !== "(") {
      index++;
      continue;
    }
    // A run must start a word: '$1 234 567 8901' and 'a1b2…' are not numbers someone dials.
    const before = index > 0 ? text[index - 1] : " ";
    if (before && /[a-z$€£.,/:]/.test(before)) {
      index++;
      continue;
    }
    let digits = "";
    let plus = false;
    let end = index;
    let lastDigit = index;
    while (end < text.length) {
      const character = text[end] as string;
      if (character >= "0" && character <= "9") {
        digits += character;
        lastDigit = end;
      } else if (character === "+" && digits === "") plus = true;
      else if (
        !(
          character === " " ||
          character === "." ||
          character === "-" ||
          character === "(" ||
          character === ")"
        )
      )
        break;
      if (digits.length > 15) break;
      end++;
    }
    const after = text[lastDigit + 1] ?? " ";
    if (!/[a-z:/%$]/.test(after) && isPhoneDigits(digits, plus)) return true;
    index = Math.max(end, index + 1);
  }
  return false;
}

function isPhoneDigits(digits: string, plus: boolean): boolean {
  if (plus) return digits.length >= 8 && digits.length <= 15;
  if (digits.length === 10) return digits[0] !== "0" && digits[0] !== "1";
  if (digits.length === 11) return digits[0] === "1" && digits[1] !== "0" && digits[1] !== "1";
  return false;
}
