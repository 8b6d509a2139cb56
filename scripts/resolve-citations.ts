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
import { spawnSync } from "node:child_process";
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
export const SKIPPED_DIRS = new Set([
  "node_modules",
  "build",
  ".react-router",
  "test-results",
  "playwright-report",
  "history",
  "results",
]);
export const SOURCE_FILE = /\.(?:ts|tsx|js|mjs|cjs)$/;
/** The files that quote citations as examples: this script, and the test that checks them. */
export const CITATION_TOOLS = [
  "scripts/resolve-citations.ts",
  "server/docs/citation-check.ts",
  "server/docs/product-citations.test.ts",
];

/**
 * An issue citation: `issue 9 §4`, `Issue 27 B`, `issue 27 A, B`, `issue 16 §1, §2`,
 * `issue 11's`, `issue 27 review`.
 */
const ISSUE =
  /\b([Ii])ssues?\s+(\d+)((?:\s*§\s*\d+(?:\s*(?:,|and|\/|&|–|-)\s*§\s*\d+)*)?)((?:\s+[A-D](?![\w'])(?:\s*,\s*[A-D](?![\w']))*)?)('s)?(\s+review)?/g;

/** The other names of things outside the repository, and what replaced each. */
const NAMES: [RegExp, string][] = [
  [/(?<![\w/])ARCHITECTURE\.md/g, "docs/architecture.md"],
  [/(?<![\w/.])ARCHITECTURE(?= rule \d)/g, "docs/architecture.md"],
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
  // A section is its own key (its issue's other sections are other matters); a letter of issue 27
  // falls back to the issue's rules, which read the words.
  if (section) return [`${issue} §${section}`];
  return letter ? [`${issue} ${letter}`, issue] : [issue];
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
    const around = lines.slice(Math.max(0, index - 2), index + 3).join("\n");
    lines[index] = rewriteLine(lines[index] ?? "", lines[index + 1] ?? "", around, map, file, (citation) =>
      unresolved.push({ file, line: index + 1, citation, text: (lines[index] ?? "").trim() }),
    );
  }
  return { text: lines.join("\n"), unresolved };
}

/** The text a comment starts with: `// `, ` * `, `{/* `, an opening quote of a test's name. */
const COMMENT_START = /^(?:\s*(?:\/\/+|\/\*+|\*|\{\/\*+)\s*|\s*(?:describe|it|test)(?:\.\w+)?\(\s*["'`])$/;

/**
 * Rewrites each issue citation of one line. Every decision about a citation reads the line as it
 * was written (never the text already rewritten), so two citations side by side are each resolved.
 */
function rewriteLine(
  line: string,
  nextLine: string,
  around: string,
  map: CitationMap,
  file: string,
  report: (citation: string) => void,
): string {
  const near = `${line}\n${nextLine}`;
  let out = "";
  let at = 0;
  ISSUE.lastIndex = 0;
  for (let match = ISSUE.exec(line); match; match = ISSUE.exec(line)) {
    const [whole, initial = "i", issue = "", sections = "", letters = "", possessive = ""] = match;
    const upper = initial === "I";
    const start = match.index;
    let end = start + whole.length;
    const before = line.slice(0, start);
    const after = line.slice(end);
    let replacement: string;
    let cut = 0; // characters of `out` to take back (a separator before the citation)

    // 1. A decision named right after the citation: `issue 16 §1, decision 0353`,
    //    `Issue 27 B (decision 0441):`, `issue 27 C, decisions` (the numbers on the next line).
    const following =
      /^\s*(?:[,;:]|—)?\s*(\()?\s*(decisions?\s+\d{4}(?:\s*(?:,|and|or|–|-)\s*\d{4})*|decisions?\s*$)(\s*\))?/i.exec(
        after,
      );
    // 2. A decision named right before it: `decision 0133 (issue 10 §4)`, `(decision 0290; issue 16 §3)`,
    //    `0455, issue 27:` (the end of a list of decisions).
    const preceding =
      /(?:decisions?\s+\d{4}(?:\s*(?:,|and|or|–|-)\s*\d{4})*|\b\d{4})(\s*[,;]\s*|\s*\(\s*)$/i.exec(before);
    if (following && !possessive) {
      const phrase = following[2] ?? "";
      const open = Boolean(following[1]);
      const close = Boolean(following[3]);
      replacement = upper ? capitalise(phrase) : phrase;
      end += following[0].length;
      if (open && !/\d/.test(phrase)) {
        // `Issue 11 (decision` with the numbers on the next line: the parenthesis stays open.
        replacement = `(${phrase}`;
      } else if (open && !close) {
        // `Issue 11 (decisions 0170–0172; beyond the spec)`: the rest stays in its parenthesis.
        const rest = /^\s*[;,]\s*/.exec(line.slice(end));
        replacement += " (";
        if (rest) end += rest[0].length;
      } else if (!open && close) {
        replacement += ")";
      }
    } else if (preceding && !possessive) {
      const separator = preceding[1] ?? "";
      replacement = "";
      if (separator.includes("(")) {
        const close = /^\s*\)/.exec(after);
        if (close) {
          cut = separator.length;
          end += close[0].length;
        } else {
          // `decision 0133 (issue 10 §4: …)`: the parenthesis stays, the citation goes.
          const colon = /^\s*[:,;]\s*/.exec(after);
          if (colon) end += colon[0].length;
        }
      } else {
        cut = separator.length;
      }
    } else {
      // 3. The table: the decision or product rule this citation led to.
      const target = resolveIssue(map, citationKeys(issue, sections, letters), near, around, file);
      if (!target) {
        report(whole);
        out += line.slice(at, end);
        at = end;
        continue;
      }
      const elsewhere = (line.slice(0, start) + line.slice(end)).toLowerCase().includes(target.toLowerCase());
      const commentStart = COMMENT_START.test(before);
      if (elsewhere && /\(\s*$/.test(before) && /^\s*\)/.test(after)) {
        // `(issue 27)` beside the same decision elsewhere on the line: dropped with its parenthesis.
        cut = /\s*\(\s*$/.exec(before)?.[0].length ?? 0;
        end += /^\s*\)/.exec(after)?.[0].length ?? 0;
        replacement = "";
      } else if (elsewhere && /\(\s*$/.test(before) && /^\s*:\s*/.test(after)) {
        // `(issue 14 §3: no web push …)` beside the same decision: `(no web push …)`.
        end += /^\s*:\s*/.exec(after)?.[0].length ?? 0;
        replacement = "";
      } else if (elsewhere && commentStart) {
        // `Issue 27: … (decision 0470).` at the start of a comment: the citation goes, the sentence starts.
        const rest = /^\s*:?\s*/.exec(after);
        end += rest?.[0].length ?? 0;
        replacement = "";
        const next = line.charAt(end);
        if (/[a-z]/.test(next)) {
          out += line.slice(at, start) + next.toUpperCase();
          at = end + 1;
          ISSUE.lastIndex = at;
          continue;
        }
      } else if (elsewhere && /[,;]\s*$/.test(before)) {
        cut = /\s*[,;]\s*$/.exec(before)?.[0].length ?? 0;
        replacement = "";
      } else if (elsewhere && /^\s*[,;]\s*/.test(after) && !possessive) {
        end += /^\s*[,;]\s*/.exec(after)?.[0].length ?? 0;
        replacement = "";
      } else {
        const capital = upper && /^(?:decision|spec)/.test(target);
        replacement = (capital ? capitalise(target) : target) + (possessive ? "'s" : "");
      }
    }
    out += line.slice(at, start);
    if (cut > 0) out = out.slice(0, out.length - cut);
    out += replacement;
    at = end;
    ISSUE.lastIndex = end;
  }
  return at === 0 ? line : mergeDecisions(out + line.slice(at));
}

/** `decision 0170, decision 0272` → `decisions 0170, 0272`; the same decision twice in a row → once. */
function mergeDecisions(line: string): string {
  return line
    .replace(/\b(decision) (\d{4})(, | and |; )decision \2\b/gi, "$1 $2")
    .replace(/\b(decision) (\d{4})(, | and )decision (\d{4})\b/gi, "$1s $2$3$4");
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
  const top = readdirSync(root).filter(
    (name) => SOURCE_FILE.test(name) && statSync(path.join(root, name)).isFile(),
  );
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
  // A citation's new text may make a line longer than the formatter allows (a test's name): the
  // rewritten files are formatted as `npm run format` would.
  if (!check && changed.length > 0) {
    const biome = spawnSync(
      path.join(root, "node_modules", ".bin", "biome"),
      ["format", "--write", ...changed],
      {
        cwd: root,
        stdio: "inherit",
      },
    );
    if (biome.status !== 0) process.exitCode = 1;
  }
  for (const file of changed) console.log(`${check ? "would rewrite" : "rewrote"} ${file}`);
  for (const miss of unresolved)
    console.log(`unresolved ${miss.file}:${miss.line} '${miss.citation}': ${miss.text}`);
  console.log(
    `${changed.length} files ${check ? "to rewrite" : "rewritten"}, ${unresolved.length} citations unresolved`,
  );
  if (unresolved.length > 0 || (check && changed.length > 0)) process.exitCode = 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
