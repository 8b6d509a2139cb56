// Changes to installed packages (docs/upgrading.md lists each with its reason, its test and the
// React Router change that makes it unnecessary). Each is a unified diff in patches/, named
// `<package>+<version>.patch` (a scope's slash written `+`: `@react-router+dev+7.18.4.patch`), made
// against that version's published files and applied exactly: every hunk at its line with its
// context, or nothing is written. Run after every `npm install` (package.json "postinstall") and
// by `npm test`; applying twice changes nothing. When the installed version is not the patch's,
// or its files are not what the patch was made against, the install stops with what to do.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The package and version a patch file is for, from its name.
 * @param {string} fileName e.g. "react-router+7.18.4.patch" or "@react-router+dev+7.18.4.patch"
 * @returns {{ packageName: string; version: string }}
 */
export function patchTarget(fileName) {
  const match = /^((?:@[^+]+\+)?[^+]+)\+([^+]+)\.patch$/.exec(fileName);
  if (!match?.[1] || !match[2]) throw new Error(`${fileName}: not named <package>+<version>.patch`);
  return { packageName: match[1].replace("+", "/"), version: match[2] };
}

/**
 * @typedef {{ oldStart: number; oldLines: string[]; newStart: number; newLines: string[] }} Hunk
 * @typedef {{ file: string; hunks: Hunk[] }} FilePatch
 */

/**
 * The files and hunks of a unified diff (as `git diff` writes it). Each line keeps its "\n",
 * except one marked "\ No newline at end of file".
 * @param {string} text
 * @returns {FilePatch[]}
 */
export function parsePatch(text) {
  /** @type {FilePatch[]} */
  const files = [];
  /** @type {Hunk | null} */
  let hunk = null;
  // Lines the current hunk still has on each side: a hunk's lines are read by its counts, so a
  // line of code that begins with "++" or "@@" is never taken for a header.
  let oldLeft = 0;
  let newLeft = 0;
  /** @type {string[][]} the sides the last line went to, for "\ No newline at end of file" */
  let lastSides = [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  for (const line of lines) {
    if (line.startsWith("\\")) {
      for (const side of lastSides) side[side.length - 1] = (side.at(-1) ?? "").replace(/\n$/, "");
    } else if (hunk && (oldLeft > 0 || newLeft > 0)) {
      const content = `${line.slice(1)}\n`;
      if (line.startsWith(" ")) lastSides = [hunk.oldLines, hunk.newLines];
      else if (line.startsWith("-")) lastSides = [hunk.oldLines];
      else if (line.startsWith("+")) lastSides = [hunk.newLines];
      else throw new Error(`a hunk ends early, at: ${line}`);
      for (const side of lastSides) side.push(content);
      if (line[0] !== "+") oldLeft -= 1;
      if (line[0] !== "-") newLeft -= 1;
    } else if (line.startsWith("+++ ")) {
      const file = line.slice(4).replace(/^b\//, "");
      if (file === "/dev/null")
        throw new Error("a patch here changes files; it neither adds nor deletes them");
      files.push({ file, hunks: [] });
      hunk = null;
    } else if (line.startsWith("@@ ")) {
      const match = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
      const current = files.at(-1);
      if (!match || !current) throw new Error(`not a hunk header here: ${line}`);
      oldLeft = Number(match[2] ?? 1);
      newLeft = Number(match[4] ?? 1);
      // A side with no lines names the line before the place; one with lines, its first line.
      const start = (/** @type {string | undefined} */ at, /** @type {number} */ count) =>
        count === 0 ? Number(at) : Number(at) - 1;
      hunk = {
        oldStart: start(match[1], oldLeft),
        oldLines: [],
        newStart: start(match[3], newLeft),
        newLines: [],
      };
      current.hunks.push(hunk);
      lastSides = [];
    }
    // Anything else (`diff --git`, `index`, `---`) is a file's header: the `+++` line names it.
  }
  return files;
}

/** @param {string} text @returns {string[]} the lines, each with its "\n" but perhaps the last */
function linesOf(text) {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** @param {string[]} lines @param {number} at @param {string[]} expected */
function holds(lines, at, expected) {
  return expected.every((line, index) => lines[at + index] === line);
}

/**
 * One file's text with its hunks applied: "applied", "already" (every hunk's new text is in place)
 * or "mismatch" (neither: the first hunk whose text is not at its line).
 * @param {string} text
 * @param {Hunk[]} hunks
 * @returns {{ status: "applied" | "already"; text: string } | { status: "mismatch"; line: number }}
 */
export function applyHunks(text, hunks) {
  const lines = linesOf(text);
  if (hunks.every((hunk) => holds(lines, hunk.newStart, hunk.newLines))) return { status: "already", text };
  const result = [];
  let next = 0;
  for (const hunk of hunks) {
    if (hunk.oldStart < next || !holds(lines, hunk.oldStart, hunk.oldLines)) {
      return { status: "mismatch", line: hunk.oldStart + 1 };
    }
    result.push(...lines.slice(next, hunk.oldStart), ...hunk.newLines);
    next = hunk.oldStart + hunk.oldLines.length;
  }
  result.push(...lines.slice(next));
  return { status: "applied", text: result.join("") };
}

/**
 * @typedef {{
 *   patch: string;
 *   outcome: "applied" | "already" | "other-version" | "not-installed" | "mismatch";
 *   detail: string;
 * }} PatchResult
 */

/**
 * Applies one patch file to the packages under `root`/node_modules: all its files or none.
 * @param {string} root
 * @param {string} patchFile
 * @returns {PatchResult}
 */
export function applyPatchFile(root, patchFile) {
  const name = path.basename(patchFile);
  const { packageName, version } = patchTarget(name);
  const packageDir = path.join("node_modules", packageName);
  let installed;
  try {
    installed = JSON.parse(readFileSync(path.join(root, packageDir, "package.json"), "utf8")).version;
  } catch {
    return { patch: name, outcome: "not-installed", detail: `${packageName} is not installed` };
  }
  if (installed !== version) {
    return {
      patch: name,
      outcome: "other-version",
      detail:
        `${packageName} ${installed} is installed, and this patch is for ${version} only. ` +
        `docs/upgrading.md says, for this patch, which change of ${packageName} makes it unnecessary: ` +
        `if ${installed} has it, delete patches/${name} (and what the page lists with it); ` +
        `if not, make the patch again against ${installed} (the page says how), or install ${version}.`,
    };
  }
  /** @type {{ file: string; text: string }[]} */
  const writes = [];
  let already = 0;
  for (const { file, hunks } of parsePatch(readFileSync(patchFile, "utf8"))) {
    if (!file.startsWith(`${packageDir}/`)) {
      throw new Error(`${name}: ${file} is outside ${packageDir}`);
    }
    const target = path.join(root, file);
    const result = existsSync(target) ? applyHunks(readFileSync(target, "utf8"), hunks) : null;
    if (!result || result.status === "mismatch") {
      return {
        patch: name,
        outcome: "mismatch",
        detail:
          `${file}${result ? ` (line ${result.line})` : ""} is not the file of ${packageName} ${version} this patch ` +
          `was made against, nor that file patched. Reinstall the package (rm -rf ${packageDir} && npm install).`,
      };
    }
    if (result.status === "applied") writes.push({ file: target, text: result.text });
    else already += 1;
  }
  for (const { file, text } of writes) writeFileSync(file, text);
  return {
    patch: name,
    outcome: writes.length > 0 ? "applied" : "already",
    detail: `${writes.length} file(s) changed, ${already} already`,
  };
}

/** The project's patches directory. */
export const PATCHES_DIR = fileURLToPath(new URL("../patches", import.meta.url));

/**
 * Applies every patch in `patchesDir` to the packages under `root`/node_modules.
 * @param {string} root
 * @param {string} [patchesDir]
 * @returns {PatchResult[]}
 */
export function patchDependencies(root, patchesDir = PATCHES_DIR) {
  return readdirSync(patchesDir)
    .filter((file) => file.endsWith(".patch"))
    .sort()
    .map((file) => applyPatchFile(root, path.join(patchesDir, file)));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  let failed = false;
  for (const result of patchDependencies(root)) {
    const ok = result.outcome === "applied" || result.outcome === "already";
    // A package that is not installed (a production install without devDependencies) needs no patch.
    if (!ok && result.outcome !== "not-installed") failed = true;
    (ok ? console.log : console.error)(
      `patch-dependencies: patches/${result.patch}: ${result.outcome}: ${result.detail}`,
    );
  }
  if (failed) process.exit(1);
}
