// Rewrites the citations in the code that lead outside the repository into ones that resolve
// inside it (decision 0507): `issue N §M` becomes the decision (or the product rule) that issue
// led to, `ARCHITECTURE.md` and `CONTRACT.md` become docs/architecture.md and docs/contract.md,
// and `round2-design` becomes docs/research/round-2.md. The table it works from is
// scripts/citation-map.json, keyed by the citation and the words around it, never by a file's
// path alone, so files that moved are still rewritten. Running it twice changes nothing the
// second time. server/docs/product-citations.test.ts fails on any citation it leaves behind.
//
//   npx tsx scripts/resolve-citations.ts            rewrite the files, print what changed
//   npx tsx scripts/resolve-citations.ts --check    change nothing; exit 1 if anything would change
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** One way an issue's citation resolves: `to` when `text` (a regular expression) is in the words around it. */
export interface CitationRule {
  text?: string;
  /** A part of the file's path (`chats/`), for the few citations whose words say nothing. */
  file?: string;
  to: string;
}

export interface CitationMap {
  /** Plain texts replaced first, for citations no rule reads well: `from` → `to`, exactly. */
  phrases: { from: string; to: string }[];
  /**
   * By citation: `"27"`, `"9 §4"`, `"27 A"`. A lettered or sectioned citation falls back to its
   * issue's rules (`"27 A"` → `"27"`). `default` is used when no rule's text matches.
   */
  issues: Record<string, { default?: string; rules?: CitationRule[] }>;
}

/** What scans and the check share: where code lives, and what is not code. */
export const SCANNED_DIRS = ["app", "server", "scripts", "tests", "bench"];
export const SKIPPED_DIRS = new Set(["node_modules", "build", ".react-router", "test-results", "playwright-report", "history", "results"]);
export const SOURCE_FILE = /\.(?:ts|tsx|js|mjs|cjs)$/;
/** The files that quote citations as examples: this script, and the test that checks them. */
export const CITATION_TOOLS = ["scripts/resolve-citations.ts", "server/docs/product-citations.test.ts"];

/**
 * An issue citation: `issue 9 §4`, `Issue 27 B`, `issue 27 A, B`, `issue 16 §1, §2`,
 * `issue 11's`, `issue 27 review`.
 */
const ISSUE =
  /\b([Ii])ssues?\s+(\d+)((?:\s*§\s*\d+(?:\s*(?:,|and|\/|&)\s*§\s*\d+)*)?)((?:\s+[A-D](?![\w'])(?:\s*,\s*[A-D](?![\w']))*)?)('s)?(\s+review)?/g;

/** `decision 0353`, `decisions 0351 and 0354`, `decisions 0350–0353`. */
const DECISION_PHRASE = /decisions?\s+\d{4}(?:(?:\s*(?:,|and|or|–|-)\s*)\d{4})*/i;

/** The other names of things outside the repository, and what replaced each. */
const NAMES: [RegExp, string][] = [
  [/(?<![\w/])ARCHITECTURE\.md/g, "docs/architecture.md"],
  [/(?<![\w/])CONTRACT\.md/g, "docs/contract.md"],
  [/(?<![\w/])round2-design(?:\.md)?/g, "docs/research/round-2.md"],
  [/(?<![\w/])round3-design(?:\.md)?/g, "docs/research/round-3.md"],
];

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The key of a citation: issue, then its first section or letter. */
function citationKeys(issue: string, sections: string, letters: string): string[] {
  const section = /§\s*(\d+)/.exec(sections)?.[1];
  const letter = /[A-D]/.exec(letters)?.[0];
  const keys: string[] = [];
  if (section) keys.push(`${issue} §${section}`);
  if (letter) keys.push(`${issue} ${letter}`);
  keys.push(issue);
  return keys;
}

/** What a citation leads to: the first rule whose text is in `near` (then in `around`), else the default. */
export function resolveIssue(
  map: CitationMap,
  keys: readonly string[],
  near: string,
  around: string,
  file: string,
): string | null {
  for (const context of [near, around]) {
    for (const key of keys) {
      for (const rule of map.issues[key]?.rules ?? []) {
        if (rule.file && !file.includes(rule.file)) continue;
        if (rule.text && !new RegExp(rule.text, "i").test(context)) continue;
        return rule.to;
      }
    }
  }
  for (const key of keys) {
    const fallback = map.issues[key]?.default;
    if (fallback) return fallback;
  }
  return null;
}

export interface Unresolved {
  file: string;
  line: number;
  citation: string;
  text: string;
}

/** Rewrites one file's text. Pure: the same text and map give the same result. */
export function rewriteCitations(
  text: string,
  map: CitationMap,
  file: string,
): { text: string; unresolved: Unresolved[] } {
  let result = text;
  for (const phrase of map.phrases) result = result.split(phrase.from).join(phrase.to);
  for (const [pattern, replacement] of NAMES) result = result.replace(pattern, replacement);
  const unresolved: Unresolved[] = [];
  const lines = result.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const around = lines.slice(Math.max(0, index - 3), index + 4).join("\n");
    lines[index] = rewriteLine(lines[index] ?? "", lines[index + 1] ?? "", around, map, file, (citation) =>
      unresolved.push({ file, line: index + 1, citation, text: (lines[index] ?? "").trim() }),
    );
  }
  return { text: lines.join("\n"), unresolved };
}

function rewriteLine(
  line: string,
  nextLine: string,
  around: string,
  map: CitationMap,
  file: string,
  report: (citation: string) => void,
): string {
  let out = "";
  let rest = line;
  for (;;) {
    ISSUE.lastIndex = 0;
    const match = ISSUE.exec(rest);
    if (!match) break;
    const [whole, initial = "i", issue = "", sections = "", letters = "", possessive = ""] = match;
    const upper = initial === "I";
    let before = out + rest.slice(0, match.index);
    let after = rest.slice(match.index + whole.length);

    // 1. A decision named right after the citation: `issue 16 §1, decision 0353`,
    //    `Issue 27 B (decision 0441):`, `issue 27 C, decisions` (numbers on the next line).
    const following = /^\s*(?:[,;:]|—)?\s*(\()?\s*(decisions?\s+\d{4}(?:\s*(?:,|and|or|–|-)\s*\d{4})*|decisions?\s*$)(\))?/i.exec(
      after,
    );
    if (following && !possessive) {
      const phrase = following[2] ?? "";
      const parenthesised = Boolean(following[1]) && Boolean(following[3]);
      const keptClose = following[1] ? "" : (following[3] ?? "");
      out = before + (upper ? capitalise(phrase) : phrase) + (parenthesised ? "" : keptClose);
      rest = after.slice(following[0].length);
      continue;
    }

    // 2. A decision named right before it: `decision 0133 (issue 10 §4)`, `(decision 0290; issue 16 §3)`,
    //    `0455, issue 27:` (the end of a list of decisions).
    const precededByDecision = /(?:decisions?\s+\d{4}(?:\s*(?:,|and|or|–|-)\s*\d{4})*|\b\d{4})(\s*[,;]\s*|\s*\(\s*)$/i.exec(
      before,
    );
    if (precededByDecision && !possessive) {
      const separator = precededByDecision[1] ?? "";
      if (separator.includes("(")) {
        const close = /^\s*\)/.exec(after);
        if (close) {
          out = before.slice(0, before.length - separator.length);
          rest = after.slice(close[0].length);
          continue;
        }
        // `decision 0133 (issue 10 §4: …)`: keep the parenthesis, drop the citation.
        out = before;
        rest = after.replace(/^\s*[:,;]\s*/, "");
        continue;
      }
      out = before.slice(0, before.length - separator.length);
      rest = after;
      continue;
    }

    // 3. The table: the decision or product rule this citation led to.
    const near = `${line}\n${nextLine}`;
    const target = resolveIssue(map, citationKeys(issue, sections, letters), near, around, file);
    if (!target) {
      report(whole);
      out = before + whole;
      rest = after;
      continue;
    }
    const resolved = upper ? capitalise(target) : target;
    const alreadyThere = line.toLowerCase().includes(target.toLowerCase());
    // `(issue 27)` alone in its parenthesis beside the same decision elsewhere on the line: dropped.
    const alone = /\(\s*$/.test(before) && /^\s*\)/.test(after);
    if (alreadyThere && alone) {
      before = before.replace(/\s*\(\s*$/, "");
      after = after.replace(/^\s*\)/, "");
      out = before;
      rest = after;
      continue;
    }
    if (alreadyThere && /[,;]\s*$/.test(before)) {
      out = before.replace(/\s*[,;]\s*$/, "");
      rest = after;
      continue;
    }
    if (alreadyThere && /^\s*[,;]\s*/.test(after) && !possessive) {
      out = before;
      rest = after.replace(/^\s*[,;]\s*/, "");
      continue;
    }
    out = before + resolved + (possessive && !/'s$/.test(resolved) ? "'s" : "");
    rest = after;
  }
  return out + rest;
}

function sourceFiles(root: string, dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) files.push(...sourceFiles(root, relative));
    } else if (SOURCE_FILE.test(entry.name)) {
      files.push(relative);
    }
  }
  return files;
}

/** Every code file the citations are read in: the scanned folders and the code files at the top. */
export function codeFiles(root: string): string[] {
  const top = readdirSync(root).filter((name) => SOURCE_FILE.test(name) && statSync(path.join(root, name)).isFile());
  return [...top, ...SCANNED_DIRS.flatMap((dir) => sourceFiles(root, dir))]
    .filter((file) => !CITATION_TOOLS.includes(file))
    .sort();
}

export function readCitationMap(root: string): CitationMap {
  return JSON.parse(readFileSync(path.join(root, "scripts", "citation-map.json"), "utf8")) as CitationMap;
}

function main(): void {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const check = process.argv.includes("--check");
  const map = readCitationMap(root);
  const changed: string[] = [];
  const unresolved: Unresolved[] = [];
  for (const file of codeFiles(root)) {
    const full = path.join(root, file);
    const before = readFileSync(full, "utf8");
    const after = rewriteCitations(before, map, file);
    unresolved.push(...after.unresolved);
    if (after.text === before) continue;
    changed.push(file);
    if (!check) writeFileSync(full, after.text);
  }
  for (const file of changed) console.log(`${check ? "would rewrite" : "rewrote"} ${file}`);
  for (const miss of unresolved) console.log(`unresolved ${miss.file}:${miss.line} '${miss.citation}': ${miss.text}`);
  console.log(`${changed.length} files ${check ? "to rewrite" : "rewritten"}, ${unresolved.length} citations unresolved`);
  if (unresolved.length > 0 || (check && changed.length > 0)) process.exitCode = 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
