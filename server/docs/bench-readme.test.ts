import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * Decision 0505: bench/README.md is a page a newcomer reads whole — how to run each benchmark, the
 * current results against the targets, the performance decisions — and every earlier round lives
 * in bench/history/. This keeps it short and its links true.
 */

const root = fileURLToPath(new URL("../../", import.meta.url));
const MAX_LINES = 250;

/** Every relative link target of a Markdown file (`[text](target)`), without its `#anchor`. */
function relativeLinks(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] ?? "")
    .filter((target) => !/^[a-z]+:/.test(target) && !target.startsWith("#"))
    .map((target) => target.replace(/#.*$/, ""));
}

describe("bench/README.md (decision 0505)", () => {
  const page = readFileSync(join(root, "bench", "README.md"), "utf8");

  it(`stays within ${MAX_LINES} lines`, () => {
    expect(page.split("\n").length).toBeLessThanOrEqual(MAX_LINES);
  });

  it("links only files that exist, and every round in bench/history/", () => {
    const pages = [
      "bench/README.md",
      ...readdirSync(join(root, "bench", "history")).map((name) => `bench/history/${name}`),
    ];
    const missing = pages.flatMap((file) =>
      relativeLinks(readFileSync(join(root, file), "utf8"))
        .filter((target) => !existsSync(join(root, dirname(file), target)))
        .map((target) => `${file} → ${target}`),
    );
    expect(missing).toEqual([]);
    const index = readFileSync(join(root, "bench", "history", "README.md"), "utf8");
    const unlisted = readdirSync(join(root, "bench", "history")).filter(
      (name) => name !== "README.md" && !index.includes(`](${name})`),
    );
    expect(unlisted).toEqual([]);
  });

  it("has a results table whose rows each say when they were measured and where they come from", () => {
    const rows = page
      .slice(page.indexOf("## Current results"), page.indexOf("## Performance decisions"))
      .split("\n")
      .filter((line) => line.startsWith("| ") && !line.startsWith("| target") && !line.startsWith("|---"));
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) {
      expect(row).toMatch(/20\d\d-\d\d-\d\d/);
      expect(row).toMatch(/\]\(history\/[\w-]+\.md\)/);
    }
  });
});
