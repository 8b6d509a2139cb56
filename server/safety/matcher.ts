import { z } from "zod";
import { type FoundLink, findLinks, hasEmail, hasPhone, isLookAlike, isShortener } from "./detectors";
import { normaliseForSafety, type Token, tokenise } from "./normalise";

/**
 * The bounded matcher a safety rule's `pattern` describes (decision 0651). A pattern is JSON,
 * validated here, never a regular expression: a list of terms (words or phrases), optionally
 * only when one of `near` is within `window` words; a named detector; or any of a few of those.
 * Matching is a walk over the message's words and a few hash lookups, linear in the text.
 */

export const SAFETY_DETECTORS = ["phone", "email", "link", "shortener", "lookalike"] as const;
export type SafetyDetector = (typeof SAFETY_DETECTORS)[number];

const term = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .refine((value) => tokenise(normaliseForSafety(value)).length > 0, {
    error: "A term needs a letter or digit.",
  });

const termsPattern = z.strictObject({
  kind: z.literal("terms"),
  terms: z.array(term).min(1).max(100),
  near: z.array(term).min(1).max(100).optional(),
  /** Words between a term and a near term, at most. */
  window: z.int().min(1).max(12).optional(),
});

const detectorPattern = z.strictObject({
  kind: z.literal("detector"),
  detector: z.enum(SAFETY_DETECTORS),
  /** Only for writers whose account is younger than this many hours (the new-account link rule). */
  accountYoungerThanHours: z
    .int()
    .min(1)
    .max(24 * 30)
    .optional(),
});

const simplePattern = z.discriminatedUnion("kind", [termsPattern, detectorPattern]);

export const safetyPatternSchema = z.discriminatedUnion("kind", [
  termsPattern,
  detectorPattern,
  z.strictObject({ kind: z.literal("any"), of: z.array(simplePattern).min(1).max(10) }),
]);
export type SafetyPattern = z.infer<typeof safetyPatternSchema>;
type SimplePattern = z.infer<typeof simplePattern>;

/** A term as the matcher compares it: its letters joined, and where its words end. */
interface CompiledTerm {
  key: string;
  /** Offsets in `key` where one of the term's words ends (a space in the text may fall only there). */
  boundaries: ReadonlySet<number>;
}

type CompiledSimple =
  | { kind: "terms"; terms: CompiledTerm[]; near: CompiledTerm[] | null; window: number }
  | { kind: "detector"; detector: SafetyDetector; accountYoungerThanHours: number | null };

export interface CompiledPattern {
  parts: CompiledSimple[];
}

function compileTerm(value: string): CompiledTerm {
  const words = tokenise(normaliseForSafety(value)).map((token) => token.text);
  const boundaries = new Set<number>();
  let offset = 0;
  for (const word of words) {
    offset += word.length;
    boundaries.add(offset);
  }
  return { key: words.join(""), boundaries };
}

function compileSimple(pattern: SimplePattern): CompiledSimple {
  if (pattern.kind === "detector")
    return {
      kind: "detector",
      detector: pattern.detector,
      accountYoungerThanHours: pattern.accountYoungerThanHours ?? null,
    };
  return {
    kind: "terms",
    terms: pattern.terms.map(compileTerm),
    near: pattern.near ? pattern.near.map(compileTerm) : null,
    window: pattern.window ?? 6,
  };
}

export function compilePattern(pattern: SafetyPattern): CompiledPattern {
  return { parts: pattern.kind === "any" ? pattern.of.map(compileSimple) : [compileSimple(pattern)] };
}

/** Every term key of a rule set and all their prefixes: the walk extends a run of words only along these. */
export function termPrefixes(patterns: readonly CompiledPattern[]): Set<string> {
  const prefixes = new Set<string>();
  for (const pattern of patterns)
    for (const part of pattern.parts) {
      if (part.kind !== "terms") continue;
      for (const compiled of [...part.terms, ...(part.near ?? [])])
        for (let length = 1; length <= compiled.key.length; length++)
          prefixes.add(compiled.key.slice(0, length));
    }
  return prefixes;
}

/** A run of words, first and last index. */
type Span = readonly [number, number];

/** A text as the rules read it, computed once per check and shared by every rule. */
export interface ReadText {
  normalised: string;
  tokens: Token[];
  /** Joined runs of words that spell a prefix of some term, with their spans and the offsets of real spaces. */
  runs: Map<string, { span: Span; spaces: number[] }[]>;
  links: FoundLink[] | null;
  phone: boolean | null;
  email: boolean | null;
}

/** At most this many words joined into one term ('c a s h a p p' is 7). */
const MAX_RUN_WORDS = 12;

/**
 * Reads a text for the rules: normalised, split into words, and the runs of consecutive words
 * that spell a prefix of some term (so 'z e l l e', 'ven.mo' and 'cash app' all spell 'zelle',
 * 'venmo', 'cashapp'). Whether a run may stand for a term is decided per term (`spansOf`): a
 * space may fall only where the term has one, unless the words are single letters ('z e l l e').
 */
export function readText(text: string, prefixes: ReadonlySet<string>): ReadText {
  const normalised = normaliseForSafety(text);
  const tokens = tokenise(normalised);
  const runs = new Map<string, { span: Span; spaces: number[] }[]>();
  for (let first = 0; first < tokens.length; first++) {
    let joined = "";
    const spaces: number[] = [];
    for (let last = first; last < tokens.length && last - first < MAX_RUN_WORDS; last++) {
      const token = tokens[last] as Token;
      if (last > first) {
        const previous = tokens[last - 1] as Token;
        const gap = normalised.slice(previous.start + previous.text.length, token.start);
        if (gap.length > 3) break;
        const singleLetters = previous.text.length === 1 && token.text.length === 1;
        if (/\s/.test(gap) && !singleLetters) spaces.push(joined.length);
      }
      joined += token.text;
      if (!prefixes.has(joined)) break;
      const list = runs.get(joined);
      const entry = { span: [first, last] as const, spaces: [...spaces] };
      if (list) list.push(entry);
      else runs.set(joined, [entry]);
    }
  }
  return { normalised, tokens, runs, links: null, phone: null, email: null };
}

function spansOf(read: ReadText, compiled: CompiledTerm): Span[] {
  const found = read.runs.get(compiled.key);
  if (!found) return [];
  return found
    .filter((run) => run.spaces.every((offset) => compiled.boundaries.has(offset)))
    .map((run) => run.span);
}

function near(spans: readonly Span[], others: readonly Span[], window: number): boolean {
  for (const [start, end] of spans)
    for (const [otherStart, otherEnd] of others) {
      const gap = otherStart > end ? otherStart - end - 1 : start > otherEnd ? start - otherEnd - 1 : 0;
      if (gap <= window) return true;
    }
  return false;
}

/** Who writes, as the detectors that depend on it need it. */
export interface WriterFacts {
  /** Hours since the account was created, by the clock. */
  accountAgeHours: number;
  /** The site's own domains, never look-alikes. */
  ownDomains: readonly string[];
}

function linksOf(read: ReadText): FoundLink[] {
  read.links ??= findLinks(read.normalised, read.tokens);
  return read.links;
}

function detects(
  read: ReadText,
  part: Extract<CompiledSimple, { kind: "detector" }>,
  writer: WriterFacts,
): boolean {
  if (part.accountYoungerThanHours !== null && writer.accountAgeHours >= part.accountYoungerThanHours)
    return false;
  switch (part.detector) {
    case "phone":
      read.phone ??= hasPhone(read.normalised);
      return read.phone;
    case "email":
      read.email ??= hasEmail(read.normalised, read.tokens);
      return read.email;
    case "link":
      return linksOf(read).length > 0;
    case "shortener":
      return linksOf(read).some((link) => isShortener(link.host));
    case "lookalike":
      return linksOf(read).some((link) => isLookAlike(link.host, writer.ownDomains));
  }
}

/** Whether a compiled pattern matches a read text. */
export function matches(read: ReadText, pattern: CompiledPattern, writer: WriterFacts): boolean {
  for (const part of pattern.parts) {
    if (part.kind === "detector") {
      if (detects(read, part, writer)) return true;
      continue;
    }
    const spans = part.terms.flatMap((compiled) => spansOf(read, compiled));
    if (spans.length === 0) continue;
    if (!part.near) return true;
    const others = part.near.flatMap((compiled) => spansOf(read, compiled));
    if (others.length > 0 && near(spans, others, part.window)) return true;
  }
  return false;
}
