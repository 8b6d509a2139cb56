import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CITATION_TOOLS, codeFiles } from "../../scripts/resolve-citations";
import {
  checkCitations,
  checkOtherCitations,
  DECISION_CITATION,
  decisionNumbers,
  findCitations,
  parseProductDoc,
  productDocs,
  repositoryCitations,
  root,
} from "./citation-check";

describe("docs/product resolves every spec citation (decision 0133)", () => {
  it("has a heading for every section and named part the code cites", () => {
    const citations = repositoryCitations();
    // The scan itself works: the code cites the specification hundreds of times.
    expect(citations.length).toBeGreaterThan(500);
    expect(checkCitations(citations, productDocs())).toEqual([]);
  });
});

describe("every other citation in the code resolves (decision 0507)", () => {
  it("names only decisions, documents and paths the repository has, and nothing outside it", () => {
    const decisions = decisionNumbers();
    const exists = (path: string) => existsSync(join(root, path));
    const files = codeFiles(root).filter((file) => !CITATION_TOOLS.includes(file));
    // The scan itself works: the code cites decisions hundreds of times.
    const cited = files.reduce(
      (count, file) => count + [...readFileSync(join(root, file), "utf8").matchAll(DECISION_CITATION)].length,
      0,
    );
    expect(cited).toBeGreaterThan(500);
    expect(files).toContain("main.js");
    expect(files.some((file) => file.startsWith("tests/e2e/"))).toBe(true);
    const problems = files.flatMap((file) =>
      checkOtherCitations(file, readFileSync(join(root, file), "utf8"), decisions, exists),
    );
    expect(problems).toEqual([]);
  });

  it("fails on a decision, a document or a citation that does not resolve", () => {
    const decisions = new Set(["0133", "0351", "0354", "0467"]);
    const exists = (path: string) => path === "docs/contract.md" || path === "docs/product/";
    const check = (text: string) => checkOtherCitations("app/x.ts", text, decisions, exists);
    expect(
      check(
        "// decision 0133; decisions 0351 and 0354; (decisions\n * 0467, 0133); docs/contract.md 'Mail'; docs/product/",
      ),
    ).toEqual([]);
    expect(check("// decisions 0133, 0999")).toEqual([
      "app/x.ts:1 cites decision 0999, which docs/decisions/ lacks",
    ]);
    expect(check("// bench/results/search-{postgres,pglite}.md")).toEqual([]);
    expect(check("// see docs/architecture.md rule 4")).toEqual([
      "app/x.ts:1 cites docs/architecture.md, which the repository lacks",
    ]);
    expect(check('it("refuses it (issue 27 A)", () => {})')).toEqual([
      `app/x.ts:1 cites an issue of the tracker, which the repository does not hold: it("refuses it (issue 27 A)", () => {})`,
    ]);
    expect(
      check("// ARCHITECTURE.md rule 4\n// CONTRACT.md 'Mail'\n// round2-design §4").map(
        (p) => p.split(",")[0],
      ),
    ).toEqual([
      "app/x.ts:1 cites ARCHITECTURE.md",
      "app/x.ts:2 cites CONTRACT.md",
      "app/x.ts:3 cites the round-2 or round-3 design notes",
    ]);
  });
});

describe("docs/decisions/README.md (decision 0133)", () => {
  it("lists every decision record, each linked under its own number", () => {
    const dir = join(root, "docs", "decisions");
    const index = readFileSync(join(dir, "README.md"), "utf8");
    const records = readdirSync(dir).filter((name) => /^\d{4}-.+\.md$/.test(name));
    const missing = records.filter(
      (name) => !index.includes(`| ${name.slice(0, 4)} | [`) || !index.includes(`](${name})`),
    );
    expect(missing).toEqual([]);
  });
});

describe("the citation check", () => {
  const docText = ["# Rules", "## §1 One", "## §2 Two", "### Settings", "## §3 Three"].join("\n");
  const docs = new Map([[1, parseProductDoc("docs/product/1-x.md", docText)]]);
  const sections = { 1: 3 };
  const parts = { "1 §2": ["Settings"] };
  const check = (source: string, doc = docs) =>
    checkCitations(findCitations("app/x.ts", source), doc, sections, parts);

  it("reads the forms the code writes", () => {
    const cited = findCitations(
      "a.ts",
      "// spec 1 §5 and §8; spec 2 §2 'Post detail' timestamp; (spec 1 §9 / spec 2 §9); spec 2 §5's types; spec 1 §1, §5 'Phone'",
    );
    expect(cited.map((c) => `${c.spec} §${c.section}${c.name ? ` ${c.name}` : ""}`)).toEqual([
      "1 §5",
      "1 §8",
      "2 §2 Post detail",
      "1 §9",
      "2 §9",
      "2 §5",
      "1 §1",
      "1 §5 Phone",
    ]);
  });

  it("passes when every cited section and part has its heading", () => {
    expect(
      check("// spec 1 §1, spec 1 §2 'Settings', spec 1 §3 'any quoted text', spec 1 §1, §2 'Settings'"),
    ).toEqual([]);
  });

  it("fails when a cited section's heading is removed", () => {
    const without = new Map([
      [1, parseProductDoc("docs/product/1-x.md", docText.replace("## §3 Three", ""))],
    ]);
    expect(check("// spec 1 §3", without)).toEqual([
      "docs/product/1-x.md lacks the heading '## §3 …'",
      "app/x.ts:1 cites spec 1 §3, which docs/product/1-x.md lacks",
    ]);
  });

  it("fails when a named part's heading is removed", () => {
    const without = new Map([
      [1, parseProductDoc("docs/product/1-x.md", docText.replace("### Settings", ""))],
    ]);
    expect(check("// spec 1 §2 'Settings'", without)).toEqual([
      "docs/product spec 1 §2 lacks the heading '### Settings'",
      "app/x.ts:1 cites spec 1 §2 'Settings', a heading docs/product/1-x.md lacks",
    ]);
  });

  it("fails on a section number beyond the specification's, or a specification it lacks", () => {
    expect(check("// spec 1 §4\n// spec 3 §1")).toEqual([
      "app/x.ts:1 cites spec 1 §4; spec 1 has sections 1 to 3",
      "app/x.ts:2 cites spec 3, which docs/product does not have",
    ]);
    const extra = new Map([[1, parseProductDoc("docs/product/1-x.md", `${docText}\n## §4 Four`)]]);
    expect(check("", extra)).toEqual(["docs/product/1-x.md has '## §4', but spec 1 has sections 1 to 3"]);
  });

  it("fails when a part is cited under the wrong section", () => {
    expect(check("// spec 1 §1 'Settings'")).toEqual([
      "app/x.ts:1 cites spec 1 §1 'Settings', which is under §2",
    ]);
  });
});
