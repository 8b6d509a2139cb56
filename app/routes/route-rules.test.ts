import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// Decision 0490: one error adapter and one form helper. A route module (or a route's own
// `.server.ts` helper) reads its form through app/lib/form.server.ts (`readForm`, `readIntent`,
// `formFields`, `formFiles`) or app/lib/errors.server.ts (`submitForm`), and answers a domain refusal
// through `failureReply` or `listLoader`; it never parses a body, reads a form's field
// (`form.get(…)`), or maps an error class itself. There is no allow-list: a route that needs
// something new grows the helper.

const ROUTES = join(import.meta.dirname);

const FIELD_HELPERS =
  "formFields(form) or formFiles(form, name); a pending submission's intent: submittedIntent(formData)";

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
    // A variable named for a form (form, formData, navigation.formData, chatForm…); a URL's
    // searchParams, a route's params and headers are not forms and stay.
    name: "reads a form's field by hand",
    pattern: /\b\w*form\w*\??\.(?:get|getAll|has)\s*\(/i,
    instead: FIELD_HELPERS,
  },
  {
    name: "builds a FormData to read it by hand",
    pattern: /\bnew\s+FormData\s*\(/,
    instead: "the form's elements, or formFields on the submitted form",
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

/**
 * Whatever the name: a variable that holds a form (assigned from `readForm(…)`, or a parameter or
 * variable typed `FormData`) may not be read with `.get(…)` / `.getAll(…)` / `.has(…)` either.
 */
function formVariableRule(text: string): (typeof RULES)[number] | null {
  const names = new Set<string>();
  for (const match of text.matchAll(/\b(\w+)\s*=\s*(?:await\s+)?readForm\s*\(/g)) names.add(match[1] ?? "");
  for (const match of text.matchAll(/\b(\w+)\??\s*:\s*FormData\b/g)) names.add(match[1] ?? "");
  names.delete("");
  if (names.size === 0) return null;
  return {
    name: "reads a form's field by hand",
    pattern: new RegExp(`\\b(?:${[...names].join("|")})\\??\\.(?:get|getAll|has)\\s*\\(`),
    instead: FIELD_HELPERS,
  };
}

/** Each rule a file breaks, as 'file:line: what (use instead)'. */
function ruleBreaches(file: string, text: string): string[] {
  const formVariable = formVariableRule(text);
  const rules = formVariable ? [...RULES, formVariable] : RULES;
  return text.split("\n").flatMap((line, index) => {
    const broken = rules.filter((rule) => rule.pattern.test(line));
    // One line, one message a kind (the name rule and the variable rule say the same thing).
    return [...new Set(broken.map((rule) => `${file}:${index + 1}: ${rule.name} (use ${rule.instead})`))];
  });
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
      '    else await renameAd(context.app, viewer, params.adId, { title: form.get("title") });',
      '  const files = form.getAll("photo").filter((entry) => entry instanceof File);',
      '  if (formAction === "/search" && formData?.get("intent")) return false;',
      '  const paying = navigation.formData?.get("intent") === "pay-checkout";',
      "  const current = new FormData(form);",
    ];
    for (const line of seen) expect(ruleBreaches("x.tsx", line)).not.toEqual([]);
    // Whatever the form variable is called, once it holds a form.
    expect(ruleBreaches("x.tsx", 'const f = await readForm(request);\nconst card = f.get("card");')).toEqual([
      `x.tsx:2: reads a form's field by hand (use ${FIELD_HELPERS})`,
    ]);
    expect(ruleBreaches("x.tsx", 'function pick(b: FormData) {\n  return b.get("userId");\n}')).not.toEqual(
      [],
    );
    // A URL's query, a route's params and a response's headers are not forms.
    expect(ruleBreaches("x.tsx", '  const cursor = url.searchParams.get("cursor");')).toEqual([]);
    expect(ruleBreaches("x.tsx", '  const first = params.get("first")?.trim() || null;')).toEqual([]);
    expect(ruleBreaches("x.tsx", '  const retryAfter = actionHeaders.get("Retry-After");')).toEqual([]);
    // Passing a Response through, or telling a File from a string, is not mapping a refusal.
    expect(ruleBreaches("x.tsx", "    if (error instanceof Response) throw error;")).toEqual([]);
    expect(ruleBreaches("x.tsx", "  if (!(file instanceof File)) return null;")).toEqual([]);
  });
});
