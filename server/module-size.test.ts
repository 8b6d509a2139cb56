import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * Decision 0495: no file under server/ is over 400 lines, tests included, so a newcomer can
 * hold any one of them in their head. A module that grows past it splits by what its parts are
 * about (chats: conversations, messages, read state), never into numbered halves.
 */

const MAX_LINES = 400;
const serverDir = fileURLToPath(new URL(".", import.meta.url));
const root = fileURLToPath(new URL("..", import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

function lineCount(text: string): number {
  if (text === "") return 0;
  const lines = text.split("\n");
  return text.endsWith("\n") ? lines.length - 1 : lines.length;
}

describe("module size (decision 0495)", () => {
  it(`keeps every .ts and .tsx file under server/ at ${MAX_LINES} lines or fewer`, () => {
    const files = sourceFiles(serverDir);
    expect(files.length).toBeGreaterThan(100);
    const tooLong = files
      .map((path) => ({ file: relative(root, path), lines: lineCount(readFileSync(path, "utf8")) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(tooLong).toEqual([]);
  });

  it("counts lines as wc -l does", () => {
    expect(lineCount("a\nb\n")).toBe(2);
    expect(lineCount("a\nb")).toBe(2);
    expect(lineCount("")).toBe(0);
  });
});
