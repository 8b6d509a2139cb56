import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type { z } from "zod";
import { ACCOUNT_MESSAGES, SETTINGS_ERRORS } from "~/server/accounts/errors";
import { isParticipationRefused, type ParticipationRefusal } from "~/server/accounts/gates";
import type { AppContext } from "~/server/context";
import { describeFailure, isDomainError } from "~/server/errors";
import { POST_MESSAGES } from "~/server/posts/schemas";
import { PROFILE_MESSAGES } from "~/server/profiles/schemas";
import { LOCKOUT_TOAST_MS, type ToastInput } from "./toast";

/**
 * The one adapter from a domain error to a route action's answer (decision 0140).
 * Every action that calls a domain function ends its `catch` with `failureReply(…)`:
 *
 * - a `DomainError` (server/errors.ts) answers with its own status and message: under its
 *   field in the Conform reply when the form shows that field's messages (`inlineFields`),
 *   otherwise as a toast of its alert type;
 * - a participation refusal (server/accounts/gates.ts) goes where `participation` says: a
 *   page (redirect), the composer's prompt, or, by default, a toast like any refusal;
 * - anything else is logged and answered 500 with the area's 'Something went wrong'
 *   (`fallback`), or, without a fallback, rethrown to the route's ErrorBoundary.
 *
 * The list pages' JSON (server/http/list-pages.ts) answers from the same `describeFailure`.
 */

/** What a refused action answers; each route's own data type is a superset of it. */
export interface FailureData {
  ok: false;
  /** The form the refusal answers, on pages with several (docs/architecture.md rule 8). */
  intent?: string;
  /** Conform's reply: the submitted values and the field messages. */
  result?: SubmissionResult<string[]>;
  toast?: ToastInput | null;
  /** Who may not post or comment yet: the composer opens the matching prompt (spec 2 §5). */
  refusal?: ParticipationRefusal;
}

type ConformReply = (options?: { fieldErrors?: Record<string, string[]> }) => SubmissionResult<string[]>;

/** Where a participation refusal takes the user instead of a toast. */
export type ParticipationAnswer = { redirect: string } | { prompt: true } | null;

export interface FailureOptions {
  /** The form's Conform `submission.reply`, when the page has a Conform form. */
  reply?: ConformReply;
  /** The fields whose messages the form shows under them; any other message is a toast. */
  inlineFields?: readonly string[];
  /** The area's catalogue message for an unexpected error; without it, unexpected errors are rethrown. */
  fallback?: string;
  /** What the log says about an unexpected error. */
  logMessage?: string;
  intent?: string;
  participation?: (refusal: ParticipationRefusal) => ParticipationAnswer;
}

/** spec 1 §8: the lockout message stays up longer than the other toasts. */
function toastDuration(code: string | undefined): { durationMs?: number } {
  return code === "too-many-requests" ? { durationMs: LOCKOUT_TOAST_MS } : {};
}

type FailureAnswer<D> = ReturnType<typeof data<D>>;

export function failureReply(
  app: AppContext,
  error: unknown,
  options: FailureOptions & { intent: string },
): FailureAnswer<FailureData & { intent: string }>;
export function failureReply(
  app: AppContext,
  error: unknown,
  options?: FailureOptions,
): FailureAnswer<FailureData>;
export function failureReply(app: AppContext, error: unknown, options: FailureOptions = {}) {
  if (isParticipationRefused(error) && options.participation) {
    const answer = options.participation(error.refusal);
    if (answer && "redirect" in answer) throw redirect(answer.redirect);
    if (answer) {
      return data<FailureData>(
        { ok: false, ...intentOf(options), refusal: error.refusal },
        { status: error.status },
      );
    }
  }
  if (!isDomainError(error) && options.fallback === undefined) throw error;
  const failure = describeFailure(error, options.fallback ?? "");
  if (!failure.error) app.log.error({ err: error }, options.logMessage ?? "action failed");
  const inline = failure.field !== undefined && (options.inlineFields ?? []).includes(failure.field);
  const result = options.reply?.(
    inline && failure.field ? { fieldErrors: { [failure.field]: [failure.message] } } : undefined,
  );
  const toast: ToastInput | null = inline
    ? null
    : {
        message: failure.message,
        type: failure.alertType,
        ...toastDuration(failure.error?.code),
      };
  return data<FailureData>(
    { ok: false, ...intentOf(options), ...(result ? { result } : {}), toast },
    { status: failure.status, headers: { ...failure.headers } },
  );
}

function intentOf(options: FailureOptions): { intent?: string } {
  return options.intent === undefined ? {} : { intent: options.intent };
}

/**
 * Each area's answer to an unexpected error: its catalogue's 'Something went wrong' (spelled as
 * spec 1 §8 and spec 2 §8 spell it for that area), and what the log says.
 */
export const AREA_FAILURES = {
  account: { fallback: ACCOUNT_MESSAGES.somethingWentWrong, logMessage: "account action failed" },
  accountSettings: {
    fallback: SETTINGS_ERRORS.somethingWentWrong,
    logMessage: "account settings action failed",
  },
  // spec 1 §8 'Magic link and reset': a link that could not be sent.
  signInLink: {
    fallback: ACCOUNT_MESSAGES.magicLinkSendFailed,
    logMessage: "sign-in link could not be sent",
  },
  posts: { fallback: POST_MESSAGES.somethingWentWrong, logMessage: "posts action failed" },
  profile: { fallback: PROFILE_MESSAGES.somethingWentWrong, logMessage: "profile action failed" },
} as const satisfies Record<string, FailureOptions>;

/**
 * The one Conform form action (decision 0145): the form parsed with its Zod schema (400 with the
 * messages when it does not pass), then `run` (the domain function and the answer: a redirect, or
 * data); a refusal is answered by failureReply with the area's `failures`, on its field when that
 * field is in `inlineFields`, else as an alert. `hideFields` (passwords) never go back to the page.
 */
export async function submitForm<Schema extends z.ZodType, Answer>(
  app: AppContext,
  formData: FormData,
  schema: Schema,
  run: (
    value: z.output<Schema>,
    reply: (options?: { resetForm?: boolean }) => SubmissionResult<string[]>,
  ) => Promise<Answer>,
  options: {
    failures: Pick<FailureOptions, "fallback" | "logMessage">;
    inlineFields?: readonly string[];
    hideFields?: string[];
  },
) {
  const { hideFields } = options;
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") {
    return data<{ result: SubmissionResult<string[]>; toast?: ToastInput | null }>(
      { result: submission.reply({ hideFields }) },
      { status: 400 },
    );
  }
  try {
    return await run(submission.value, (replyOptions) => submission.reply({ ...replyOptions, hideFields }));
  } catch (error) {
    return failureReply(app, error, {
      ...options.failures,
      reply: (replyOptions) => submission.reply({ ...replyOptions, hideFields }),
      inlineFields: options.inlineFields,
    });
  }
}

/** What a list page shows instead of its list when the domain refuses it. */
export interface ListRefusal {
  /** spec 2 §6: a private community's content, asked for by a visitor: the page shows the gate. */
  privateGate: boolean;
  /** The refusal's message, shown in place of the list (a tampered cursor's, say). */
  listError: string;
  /**
   * The refusal's status; 200 for the gate, which is the page a visitor of a private
   * campus is meant to see (decision 0140), not a failed answer.
   */
  status: number;
}

/**
 * The list loaders' side of the one adapter (decision 0140): a domain refusal as the page's
 * gate or message, with its status; anything unexpected is rethrown to the route's
 * ErrorBoundary. The same refusal answers `GET /api/lists/…` (server/http/list-pages.ts)
 * with the same message and, but for the gate, the same status.
 */
export function listRefusal(error: unknown): ListRefusal {
  if (!isDomainError(error)) throw error;
  const privateGate = error.code === "private-campus";
  return { privateGate, listError: error.message, status: privateGate ? 200 : error.status };
}
