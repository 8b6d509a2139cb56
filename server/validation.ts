import type { z } from "zod";
import { type DomainError, SOMETHING_WENT_WRONG } from "./errors.shared";

/**
 * One way a domain function reads its input (decision 0150; docs/architecture.md
 * rule 2: a domain function is safe whatever calls it): parse with the form's Zod schema and,
 * when it fails, throw the area's DomainError with the first issue's message and the field it
 * is about. The areas say which error that is (`invalidAccountInput` in
 * server/accounts/errors.shared.ts, `invalidPostInput` in server/posts/errors.ts,
 * `invalidProfileInput` in server/profiles/errors.ts).
 */

/** What an issue is, as the areas' refusals need it. */
export interface InputIssue {
  message: string;
  /** The top-level field the issue is about, when it is about one. */
  field: string | undefined;
  /** What a schema's refinement attached to the issue (`params` of a custom issue). */
  params: Readonly<Record<string, unknown>>;
}

/** Builds an area's refusal from the first issue. */
export type InvalidInput = (issue: InputIssue) => DomainError;

function firstIssue(error: z.ZodError): InputIssue {
  const issue = error.issues[0];
  const field = issue?.path[0];
  const params = issue && issue.code === "custom" ? issue.params : undefined;
  return {
    message: issue?.message ?? SOMETHING_WENT_WRONG,
    field: typeof field === "string" ? field : undefined,
    params: params ?? {},
  };
}

export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  invalid: InvalidInput,
): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw invalid(firstIssue(parsed.error));
}
