import { data } from "react-router";
import type { z } from "zod";
import { formHoldsNul } from "~/server/http/middleware/form-bodies";
import { localPath } from "./local-path";

/**
 * docs/product/outages-and-errors.md: an action's form, or a 400 the user can act on. A body that claims to
 * be a form but is not one (a cut-off multipart body, a broken boundary) made
 * `request.formData()` throw, which was a 500; a NUL character, which no form field
 * can hold, reached PostgreSQL and failed there. Both are refused here, before the
 * action does anything. (Bodies that are not forms at all never get this far:
 * server/http/middleware/form-bodies.ts answers them with 415.)
 */
export const FORM_MESSAGES = {
  unreadable: "This form could not be read. Please reload the page and try again.",
  invalidCharacters: "This form contains characters that are not allowed. Please remove them and try again.",
  unknownIntent: "This form could not be read. Please reload the page and try again.",
  badReturnTo: "This form could not be read. Please reload the page and try again.",
} as const;

export async function readForm(request: Request): Promise<FormData> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw data({ message: FORM_MESSAGES.unreadable }, { status: 400 });
  }
  if (formHoldsNul(form)) throw data({ message: FORM_MESSAGES.invalidCharacters }, { status: 400 });
  return form;
}

/**
 * Decision 0145, docs/architecture.md rule 8: a multi-form action's `intent` ('verb-noun'), parsed once with
 * the page's Zod enum of its forms' intents. The enum's `.default()` names the page's main form
 * (what a form without an intent field means); any other value is a 400, and nothing is done.
 */
export function readIntent<Intent extends string>(form: FormData, intents: z.ZodType<Intent>): Intent {
  const parsed = intents.safeParse(form.get("intent") ?? undefined);
  if (!parsed.success) throw data({ message: FORM_MESSAGES.unknownIntent }, { status: 400 });
  return parsed.data;
}

/**
 * docs/product/outages-and-errors.md: a plain-HTML form's `returnTo` (where its action redirects), read before the action
 * writes anything. None sent: null (the action answers with data). A path of this site
 * (app/lib/local-path.ts): that path. Anything else is a 400 and nothing is done: the save used to
 * be made and the redirect to `/\u3000/x` then threw, a 500 for a change that had happened.
 */
export function readReturnTo(form: FormData): string | null {
  const value = form.get("returnTo");
  if (value === null || value === "") return null;
  const path = localPath(value);
  if (path === null) throw data({ message: FORM_MESSAGES.badReturnTo }, { status: 400 });
  return path;
}

/**
 * A plain form's fields (one value each: the last, as `Object.fromEntries` keeps it) as a domain
 * function's input: the domain parses them with its schema (docs/architecture.md rule 2), so a route
 * never reads or converts a field itself (decision 0490).
 */
export function formFields(form: FormData): Record<string, FormDataEntryValue> {
  return Object.fromEntries(form);
}

/**
 * A file input's files (every non-empty part: an empty file input sends one empty part), which
 * `formFields` cannot carry (it keeps one value a field). With `formFields`, the only way a route
 * reads a submitted field (decision 0490): never `form.get(…)` by hand.
 */
export function formFiles(form: FormData, name: string): File[] {
  return form.getAll(name).filter((entry): entry is File => entry instanceof File && entry.size > 0);
}

/**
 * Every text value of a repeated field (decision 0640: the photos an edit removes), which
 * `formFields` cannot carry (it keeps one value a field). At most `limit` are read.
 */
export function formValues(form: FormData, name: string, limit: number): string[] {
  return form
    .getAll(name)
    .filter((entry): entry is string => typeof entry === "string")
    .slice(0, limit + 1);
}
