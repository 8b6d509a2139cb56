import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Decisions 0133 and 0507: every citation in the code resolves inside the repository. `spec N §M`
 * to a heading of docs/product/; `decision NNNN` to a record in docs/decisions/; a `docs/…` path to
 * a file; and nothing cites what the repository does not hold (an issue of the tracker,
 * ARCHITECTURE.md, CONTRACT.md, the round-2 or round-3 design notes):
 * `npx tsx scripts/resolve-citations.ts` rewrites those. The checks live here; their tests in product-citations.test.ts.
 */

export const root = fileURLToPath(new URL("../../", import.meta.url));
export const productDir = join(root, "docs", "product");
export const scannedDirs = ["app", "server", "tests", "bench", "scripts"];
export const skippedDirs = new Set([
  "node_modules",
  "build",
  ".react-router",
  "test-results",
  "playwright-report",
]);
export const sourceFile = /\.(?:ts|tsx|js|mjs|cjs)$/;
/** The checks and their tests cite on purpose what the code must not. */
const checkFiles = [fileURLToPath(import.meta.url), join(root, "server/docs/product-citations.test.ts")];

/**
 * How many sections each specification has. The specification is not in the repository, so
 * this is the test's record of it: a citation of a section past these fails, and so does a
 * heading docs/product/ invents past them.
 */
export const SPEC_SECTIONS: Record<number, number> = { 1: 9, 2: 9 };

/**
 * The parts of the specification that code cites by name (`spec 1 §5 'Phone'`), by section.
 * Each must be a `###` heading under its `## §M` in docs/product/, whether or not a citation
 * names it today, so removing one fails here.
 */
export const NAMED_PARTS: Record<string, readonly string[]> = {
  "1 §2": [
    "Route table for this area",
    "Settings",
    "Profile set-up wizard",
    "Profile page",
    "Shell and layout",
    "Find Your School",
  ],
  "1 §4": ["E-mail change", "School verification", "Magic link", "Forgot password"],
  "1 §5": [
    "Sign-up from Google",
    "Register",
    "Login",
    "Forgot password",
    "Verify",
    "Username change",
    "Phone",
    "E-mail change",
    "Password change",
    "Gender",
    "Birth date",
    "School e-mail",
    "Profile photo",
    "Names",
    "Bio",
    "New-message search",
  ],
  "1 §8": ["Login", "Register", "Google sign-in", "Magic link and reset", "Account editing"],
  "2 §2": [
    "Feed",
    "Media",
    "Post detail",
    "Modals",
    "Messages",
    "Notifications",
    "Saved",
    "Search",
    "Profile content",
    "Ads",
    "Terms",
  ],
  "2 §3": ["Categories"],
  "2 §4": [
    "Composer",
    "Save/like",
    "Post lifecycle",
    "Comments and replies",
    "Notification",
    "Chat",
    "Feed pagination",
    "Ad status values and labels",
    "Analytics tracking",
  ],
};

export interface Citation {
  file: string;
  line: number;
  spec: number;
  section: number;
  /** The quoted text right after the section number, if any ('Phone'). */
  name: string | null;
  /** Every section of the citation (`spec 2 §4, §5 'Composer'`): the name may be a part of any. */
  chain: number[];
}

export interface ProductDoc {
  file: string;
  /** Section number → the names of its `###` headings. */
  sections: Map<number, string[]>;
}

// `spec 1 §5`, then any `§K` joined to it (`spec 1 §5 and §8`, `§5 / §9`, `§4, §5`), then an
// optional quoted name.
export const CITATION =
  /spec\s*(\d+)\s*§\s*(\d+)((?:\s*(?:,|\/|&|and|or)\s*§\s*\d+)*)(?:'s)?(?:,?\s+(['"])([^'"\n]{1,60}?)\4)?/gi;

export function findCitations(file: string, text: string): Citation[] {
  const found: Citation[] = [];
  const lines = text.split("\n");
  lines.forEach((lineText, index) => {
    for (const match of lineText.matchAll(CITATION)) {
      const spec = Number(match[1]);
      const sections = [match[2], ...[...(match[3] ?? "").matchAll(/§\s*(\d+)/g)].map((more) => more[1])];
      // A quoted name belongs to the section it follows: the last of the chain (`§1, §5 'Phone'`).
      const chain = sections.map(Number);
      chain.forEach((section, at) => {
        const name = at === chain.length - 1 ? (match[5] ?? null) : null;
        found.push({ file, line: index + 1, spec, section, name, chain });
      });
    }
  });
  return found;
}

export function parseProductDoc(file: string, text: string): ProductDoc {
  const sections = new Map<number, string[]>();
  let current: number | null = null;
  for (const line of text.split("\n")) {
    const section = /^## §(\d+) \S/.exec(line);
    if (section) {
      current = Number(section[1]);
      if (!sections.has(current)) sections.set(current, []);
      continue;
    }
    if (/^## /.test(line)) current = null;
    const part = /^### (.+?)\s*$/.exec(line);
    if (part?.[1] && current !== null) sections.get(current)?.push(part[1]);
  }
  return { file, sections };
}

export const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** `"1 §5"` → `[1, 5]`. */
export function partKey(key: string): [number, number] {
  const [spec = "", section = ""] = key.split(" §");
  return [Number(spec), Number(section)];
}

/** Every problem, one line each: an empty list means every citation resolves. */
export function checkCitations(
  citations: readonly Citation[],
  docs: ReadonlyMap<number, ProductDoc>,
  specSections: Readonly<Record<number, number>> = SPEC_SECTIONS,
  namedParts: Readonly<Record<string, readonly string[]>> = NAMED_PARTS,
): string[] {
  const problems: string[] = [];
  for (const [spec, count] of Object.entries(specSections)) {
    const doc = docs.get(Number(spec));
    if (!doc) {
      problems.push(`docs/product has no file for spec ${spec} (docs/product/${spec}-*.md)`);
      continue;
    }
    for (let section = 1; section <= count; section++) {
      if (!doc.sections.has(section)) problems.push(`${doc.file} lacks the heading '## §${section} …'`);
    }
    for (const section of doc.sections.keys()) {
      if (section < 1 || section > count)
        problems.push(`${doc.file} has '## §${section}', but spec ${spec} has sections 1 to ${count}`);
    }
  }
  for (const [key, parts] of Object.entries(namedParts)) {
    const [spec, section] = partKey(key);
    const headings = docs.get(spec)?.sections.get(section);
    if (!headings) continue;
    for (const part of parts) {
      if (!headings.some((heading) => same(heading, part)))
        problems.push(`docs/product spec ${spec} §${section} lacks the heading '### ${part}'`);
    }
  }
  for (const citation of citations) {
    const where = `${citation.file}:${citation.line}`;
    const count = specSections[citation.spec];
    const doc = docs.get(citation.spec);
    if (count === undefined || !doc) {
      problems.push(`${where} cites spec ${citation.spec}, which docs/product does not have`);
      continue;
    }
    if (citation.section < 1 || citation.section > count) {
      problems.push(
        `${where} cites spec ${citation.spec} §${citation.section}; spec ${citation.spec} has sections 1 to ${count}`,
      );
      continue;
    }
    if (!doc.sections.has(citation.section)) {
      problems.push(`${where} cites spec ${citation.spec} §${citation.section}, which ${doc.file} lacks`);
      continue;
    }
    const name = citation.name;
    if (name === null) continue;
    // A part's name resolves under whichever section of the citation has it.
    const owner = citation.chain.find((section) =>
      (namedParts[`${citation.spec} §${section}`] ?? []).some((part) => same(part, name)),
    );
    if (owner !== undefined) {
      if (!doc.sections.get(owner)?.some((heading) => same(heading, name)))
        problems.push(
          `${where} cites spec ${citation.spec} §${owner} '${name}', a heading ${doc.file} lacks`,
        );
      continue;
    }
    // A part's name cited under another section of the same specification: a wrong number.
    const elsewhere = Object.entries(namedParts)
      .filter(
        ([key, parts]) => key.startsWith(`${citation.spec} §`) && parts.some((part) => same(part, name)),
      )
      .map(([key]) => `§${partKey(key)[1]}`);
    if (elsewhere.length > 0)
      problems.push(
        `${where} cites spec ${citation.spec} §${citation.section} '${name}', which is under ${elsewhere.join(", ")}`,
      );
  }
  return problems;
}

export function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!skippedDirs.has(entry.name)) files.push(...sourceFiles(join(dir, entry.name)));
    } else if (sourceFile.test(entry.name)) {
      files.push(join(dir, entry.name));
    }
  }
  return files;
}

export function repositoryCitations(): Citation[] {
  return scannedDirs
    .flatMap((dir) => sourceFiles(join(root, dir)))
    .filter((file) => !checkFiles.includes(file))
    .flatMap((file) => findCitations(relative(root, file).split(sep).join("/"), readFileSync(file, "utf8")));
}

/** `decision 0353`, `decisions 0351 and 0354`, `decisions 0350–0353`, `decisions\n * 0467, 0461`. */
export const DECISION_CITATION =
  /\bdecisions?\s+(?:\*\s*)?(\d{4})((?:\s*(?:,|and|or|–|-|\/)\s*(?:\*\s*)?\d{4}\b)*)/gi;
/** A path under docs/ or bench/ the code names: `docs/contract.md`, `docs/product/`, `bench/README.md`. */
export const DOCUMENT_PATH = /(?<![\w/.-])((?:docs|bench)\/[\w./-]*[\w/])/g;
/** What the repository does not hold, and must not be cited (decision 0507). */
export const OUTSIDE = [
  { name: "an issue of the tracker", pattern: /\bissues?\s+\d+/i },
  { name: "ARCHITECTURE.md", pattern: /(?<![\w/])ARCHITECTURE(?:\.md|\s+rule)/ },
  { name: "CONTRACT.md", pattern: /(?<![\w/])CONTRACT\.md/ },
  { name: "the round-2 or round-3 design notes", pattern: /round[23]-design/ },
];

/** Every citation of a decision, a document or something outside the repository that does not resolve. */
export function checkOtherCitations(
  file: string,
  text: string,
  decisions: ReadonlySet<string>,
  exists: (path: string) => boolean,
): string[] {
  const problems: string[] = [];
  // A comment may break `decisions\n * 0467` over two lines: decisions are read across lines.
  for (const match of text.matchAll(DECISION_CITATION)) {
    const line = text.slice(0, match.index).split("\n").length;
    const numbers = [match[1], ...[...(match[2] ?? "").matchAll(/\d{4}/g)].map((more) => more[0])];
    for (const number of numbers) {
      if (number && !decisions.has(number))
        problems.push(`${file}:${line} cites decision ${number}, which docs/decisions/ lacks`);
    }
  }
  text.split("\n").forEach((lineText, index) => {
    const where = `${file}:${index + 1}`;
    for (const match of lineText.matchAll(DOCUMENT_PATH)) {
      const path = match[1] ?? "";
      // A pattern of names (`bench/results/search-{postgres,pglite}.md`, `${dir}`) names no one file.
      const next = lineText.charAt((match.index ?? 0) + match[0].length);
      if (next !== "" && "{$*<-".includes(next)) continue;
      if (!exists(path)) problems.push(`${where} cites ${path}, which the repository lacks`);
    }
    for (const outside of OUTSIDE) {
      if (outside.pattern.test(lineText))
        problems.push(
          `${where} cites ${outside.name}, which the repository does not hold: ${lineText.trim()}`,
        );
    }
  });
  return problems;
}

export function decisionNumbers(): Set<string> {
  return new Set(
    readdirSync(join(root, "docs", "decisions"))
      .filter((name) => /^\d{4}-.+\.md$/.test(name))
      .map((name) => name.slice(0, 4)),
  );
}

export function productDocs(): Map<number, ProductDoc> {
  const docs = new Map<number, ProductDoc>();
  for (const name of readdirSync(productDir)) {
    const spec = /^(\d+)-.+\.md$/.exec(name);
    if (!spec) continue;
    if (docs.has(Number(spec[1]))) throw new Error(`two files for spec ${spec[1]} in docs/product`);
    docs.set(
      Number(spec[1]),
      parseProductDoc(`docs/product/${name}`, readFileSync(join(productDir, name), "utf8")),
    );
  }
  return docs;
}
