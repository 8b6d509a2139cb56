import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type { z } from "zod";
import { ACCOUNT_MESSAGES, SETTINGS_ERRORS } from "~/server/accounts/errors.shared";
import type { PromptRefusal } from "~/server/accounts/gates.shared";
import { isParticipationRefused } from "~/server/accounts/participation";
import { AD_MESSAGES } from "~/server/ads/errors.shared";
import type { AppContext } from "~/server/context";
import { type DomainError, describeFailure, isDomainError } from "~/server/errors.shared";
import { POST_MESSAGES } from "~/server/posts/schemas";
import { PROFILE_MESSAGES } from "~/server/profiles/schemas.shared";
import { LOCKOUT_TOAST_MS, type ToastInput } from "./toast";
import { redirectWithToast } from "./toast.server";

/**
 * The one adapter from a domain error to a route action's answer (decision 0140).
 * Every action that calls a domain function ends its `catch` with `failureReply(…)`:
 *
 * - a `DomainError` (server/errors.shared.ts) answers with its own status and message: under its
 *   field in the Conform reply when the form shows that field's messages (`inlineFields`),
 *   otherwise as a toast of its alert type;
 * - a participation refusal (server/accounts/gates.shared.ts) goes where `participation` says: a
 *   page (redirect), the composer's prompt, or, by default, a toast like any refusal;
 * - a refusal that stands for the whole page (`pageRefusals`) goes to its ErrorBoundary;
 * - a refusal the page answers by going elsewhere (`elsewhere`: spec 2 §4, a post already
 *   boosted goes back to the post) redirects there with its message as a toast;
 * - anything else is logged and answered 500 with the area's 'Something went wrong'
 *   (`fallback`), or, without a fallback, rethrown to the route's ErrorBoundary.
 *
 * Loaders answer refusals through `listLoader` below; the list pages' JSON
 * (server/http/endpoints/list-pages.ts) answers from the same `describeFailure`. Decision 0490: routes
 * neither parse forms nor map error classes by hand (app/routes/route-rules.test.ts).
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
  refusal?: PromptRefusal;
  /** A plain `<Form>`'s message under its field (pages without Conform: the ads pages). */
  fieldError?: { field: string; message: string };
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
  participation?: (refusal: PromptRefusal) => ParticipationAnswer;
  /** Where a refusal sends the user instead, its message as a toast there; null: answered here. */
  elsewhere?: (error: DomainError) => string | null;
  /**
   * The codes of refusals that stand for the whole page (a checkout that is not there): thrown to
   * the route's ErrorBoundary with their message and status, as a loader's refusal is.
   */
  pageRefusals?: readonly string[];
}

/**
 * spec 1 §8: the lockout message stays up longer than the other toasts; so does a suspension's
 * (decision 0547), long enough to follow its link.
 */
function toastDuration(code: string | undefined): { durationMs?: number } {
  return code === "too-many-requests" || code === "suspended" ? { durationMs: LOCKOUT_TOAST_MS } : {};
}

type FailureAnswer<D> = ReturnType<typeof data<D>>;

export async function failureReply(
  app: AppContext,
  error: unknown,
  options: FailureOptions & { intent: string },
): Promise<FailureAnswer<FailureData & { intent: string }>>;
export async function failureReply(
  app: AppContext,
  error: unknown,
  options?: FailureOptions,
): Promise<FailureAnswer<FailureData>>;
export async function failureReply(app: AppContext, error: unknown, options: FailureOptions = {}) {
  // Decision 0547: a suspension is never a prompt nor a page elsewhere: its message and link, here.
  if (isParticipationRefused(error) && error.refusal.kind !== "suspended" && options.participation) {
    const answer = options.participation(error.refusal);
    if (answer && "redirect" in answer) throw redirect(answer.redirect);
    if (answer) {
      return data<FailureData>(
        { ok: false, ...intentOf(options), refusal: error.refusal },
        { status: error.status },
      );
    }
  }
  await goElsewhere(error, options.elsewhere);
  if (isDomainError(error) && options.pageRefusals?.includes(error.code)) {
    throw data(error.message, { status: error.status });
  }
  if (!isDomainError(error) && options.fallback === undefined) throw error;
  const failure = describeFailure(error, options.fallback ?? "");
  if (!failure.error) app.log.error({ err: error }, options.logMessage ?? "action failed");
  const inline = failure.field !== undefined && (options.inlineFields ?? []).includes(failure.field);
  const fieldErrors = inline && failure.field ? { [failure.field]: [failure.message] } : undefined;
  const result = options.reply?.(fieldErrors ? { fieldErrors } : undefined);
  // Without Conform the page reads its field's message from `fieldError`.
  const fieldError =
    inline && failure.field && !options.reply ? { field: failure.field, message: failure.message } : null;
  const toast: ToastInput | null = inline
    ? null
    : {
        message: failure.message,
        type: failure.alertType,
        ...toastDuration(failure.error?.code),
        ...(failure.link ? { link: failure.link } : {}),
      };
  return data<FailureData>(
    {
      ok: false,
      ...intentOf(options),
      ...(result ? { result } : {}),
      ...(fieldError ? { fieldError } : {}),
      toast,
    },
    { status: failure.status, headers: { ...failure.headers } },
  );
}

/** A refusal `elsewhere` sends to another page: thrown as that redirect, its message a toast there. */
async function goElsewhere(error: unknown, elsewhere: FailureOptions["elsewhere"]): Promise<void> {
  if (!elsewhere || !isDomainError(error)) return;
  const to = elsewhere(error);
  if (to !== null)
    throw await redirectWithToast(to, {
      message: error.message,
      type: error.alertType,
      ...(error.link ? { link: error.link } : {}),
    });
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
  // spec 2 §8: the ads pages' 'Something went wrong'.
  ads: { fallback: AD_MESSAGES.somethingWentWrong, logMessage: "ads action failed" },
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
    /** The form's intent on a page with several (docs/architecture.md rule 8): in every refusal's answer. */
    intent?: string;
  },
) {
  const { hideFields, intent } = options;
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") {
    return data<{ result: SubmissionResult<string[]>; toast?: ToastInput | null } & Partial<FailureData>>(
      {
        ...(intent === undefined ? {} : { intent, ok: false as const }),
        result: submission.reply({ hideFields }),
      },
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
      ...(intent === undefined ? {} : { intent }),
    });
  }
}

/** What a loader shows in place of its content when the domain refuses it (decision 0490). */
export interface ListAnswers<Gate, Refused> {
  /**
   * spec 2 §6: what a visitor of a private community sees instead (`private-campus`), with 200:
   * the page a visitor of a private campus is meant to see (decision 0140), not a failed answer.
   * Without it, the gate is a refusal like any other.
   */
  privateGate?: () => Gate;
  /**
   * The page's data with the refusal's message in place of its content (a tampered cursor's
   * 'This list could not be loaded…'), answered with the refusal's status. Without it, the
   * refusal goes to the route's ErrorBoundary as its message and status.
   */
  refused?: (message: string) => Refused;
  /** A participation refusal answered by another page (an unverified e-mail: /verify). */
  participation?: (refusal: PromptRefusal) => { redirect: string } | null;
  /** Where a refusal sends the user instead, its message as a toast there (as failureReply's). */
  elsewhere?: (error: DomainError) => string | null;
  /**
   * Shown through `refused` with 500, and logged, for an unexpected error (a list that must
   * never look empty when it failed); without it, unexpected errors go to the ErrorBoundary.
   */
  fallback?: string;
  logMessage?: string;
}

/**
 * The loaders' side of the one adapter (decision 0490): `load` is the loader's work; a domain
 * refusal becomes the page's gate, its `refused` data with the refusal's status, a redirect, or
 * its ErrorBoundary (a thrown `data(message, status)`); anything unexpected is rethrown unless
 * the page has a `fallback`. The same refusal answers `GET /api/lists/…`
 * (server/http/endpoints/list-pages.ts) with the same message and, but for the gate, the same status.
 */
export async function listLoader<Loaded, Gate = never, Refused = never>(
  app: AppContext,
  load: () => Promise<Loaded>,
  answers: ListAnswers<Gate, Refused> = {},
): Promise<Loaded | FailureAnswer<Gate> | FailureAnswer<Refused>> {
  try {
    return await load();
  } catch (error) {
    if (isParticipationRefused(error) && error.refusal.kind !== "suspended" && answers.participation) {
      const answer = answers.participation(error.refusal);
      if (answer) throw redirect(answer.redirect);
    }
    await goElsewhere(error, answers.elsewhere);
    if (isDomainError(error)) {
      if (error.code === "private-campus" && answers.privateGate) return data(answers.privateGate());
      if (answers.refused) return data(answers.refused(error.message), { status: error.status });
      throw data(error.message, { status: error.status });
    }
    // A redirect or page the load itself threw is its answer, not a failure.
    if (error instanceof Response || answers.fallback === undefined || !answers.refused) throw error;
    app.log.error({ err: error }, answers.logMessage ?? "list could not be loaded");
    return data(answers.refused(answers.fallback), { status: 500 });
  }
}

/**
 * Decision 0520: a staff page's or action's refusal of anyone but the staff it is for is the
 * not-found page (status 404, no message), as for any path that does not exist; every other
 * error goes on to the route's own handling.
 */
export async function orNotFound<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isDomainError(error) && error.code === "not-found") throw data(null, { status: 404 });
    throw error;
  }
}
