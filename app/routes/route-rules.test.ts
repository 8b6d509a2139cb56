import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// Decision 0490: one error adapter and one form helper. A route module (or a route's own
// `.server.ts` helper) reads its form through app/lib/form.server.ts (`readForm`, `readIntent`,
// `formFields`) or app/lib/errors.server.ts (`submitForm`), and answers a domain refusal through
// `failureReply` or `listLoader`; it never parses a body or maps an error class itself. There is
// no allow-list: a route that needs something new grows the helper.

const ROUTES = join(import.meta.dirname);

/** What a route may not do, and what it does instead. */
const RULES: readonly { name: string; pattern: RegExp; instead: string }[] = [
  {
    name: "reads the request body by hand",
    pattern: /\brequest\.formData\s*\(|\.formData\s*\(\s*\)/,
    instead: "readForm(request)",
  },
  { name: "parses a Conform form by hand", pattern: /\bparseWithZod\s*\(/, instead: "submitForm(…)" },
  {
    name: "turns a form into an object by hand",
    pattern: /\bObject\.fromEntries\s*\(/,
    instead: "formFields(form), parsed by the domain",
  },
  {
    name: "maps an error class by hand",
    pattern: /\binstanceof\s+(?:[A-Z]\w*Error|ParticipationRefused)\b/,
    instead: "failureReply(…) or listLoader(…)",
  },
  {
    name: "maps an error class by hand (a type guard)",
    pattern: /\bis(?:[A-Z]\w*Error|ParticipationRefused)\s*\(/,
    instead: "failureReply(…) or listLoader(…)",
  },
];

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "+types" ? [] : routeFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Each rule a file breaks, as 'file:line: what (use instead)'. */
function ruleBreaches(file: string, text: string): string[] {
  return text
    .split("\n")
    .flatMap((line, index) =>
      RULES.filter((rule) => rule.pattern.test(line)).map(
        (rule) => `${file}:${index + 1}: ${rule.name} (use ${rule.instead})`,
      ),
    );
}

describe("route modules", () => {
  const files = routeFiles(ROUTES);

  it("are found", () => {
    expect(files.length).toBeGreaterThan(40);
  });

  it("neither parse a form nor map an error class by hand", () => {
    const breaches = files.flatMap((file) =>
      ruleBreaches(relative(ROUTES, file), readFileSync(file, "utf8")),
    );
    expect(breaches).toEqual([]);
  });

  it("would catch each exception that used to be there", () => {
    const seen = [
      "  const body = Object.fromEntries(await request.formData());",
      "  const submission = parseWithZod(await readForm(request), { schema: forgotPasswordSchema });",
      '    if (isAdError(error) && error.code === "already-boosted") {',
      '    if (error instanceof PostError && error.code === "private-campus") return data({ state: "private" });',
      '    if (isParticipationRefused(error) && error.refusal.kind === "verify-email") throw redirect("/verify");',
    ];
    for (const line of seen) expect(ruleBreaches("x.tsx", line)).not.toEqual([]);
    // Passing a Response through, or telling a File from a string, is not mapping a refusal.
    expect(ruleBreaches("x.tsx", "    if (error instanceof Response) throw error;")).toEqual([]);
    expect(ruleBreaches("x.tsx", "  if (!(file instanceof File)) return null;")).toEqual([]);
  });
});
