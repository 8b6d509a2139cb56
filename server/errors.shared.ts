/**
 * One error path (decision 0140; docs/architecture.md rule 5): every refusal of a
 * domain function is a `DomainError` that carries everything an answer needs — a code to
 * branch on, the HTTP status, the message the user sees (from its area's catalogue), the
 * alert type spec 1 §2 'Alerts' shows it with, and the form field it belongs under, if any.
 * The areas' classes (server/accounts/errors.shared.ts, server/posts/errors.ts,
 * server/profiles/errors.ts, ParticipationRefused in server/accounts/participation.ts) only say
 * which status each of their codes has. One adapter turns any of them into an answer:
 * `describeFailure` here, wrapped for route actions by app/lib/errors.server.ts and for the
 * list pages' JSON by server/http/endpoints/list-pages.ts. Nothing here knows of Request or React.
 */

import { isDatabaseUnavailable } from "./db/errors";

/**
 * spec 1 §2 'Alerts', §8: the words for a failure the user cannot fix, where no area's
 * catalogue has its own spelling (the account pages add 'Try again.', spec 2 §8 a period).
 */
export const SOMETHING_WENT_WRONG = "Something went wrong";

/**
 * Decision 0470: what every answer says while the database cannot be reached (a
 * restart, a failover): 503 with Retry-After, a page or message that says the site will be
 * back, never a bare 500. The spec has no words for it; these follow its 'Something went
 * wrong' alerts.
 */
export const BACK_SOON = {
  title: "Back soon",
  message: "Campus Buy Sell is briefly unavailable. It will be back in a moment: please try again shortly.",
} as const;

/**
 * The headers of every answer to a database outage: try again in 30 seconds, about what a
 * database restart takes. A literal, not computed from BACK_SOON: a
 * computed value is evaluated wherever this module is imported, so the bundler would keep it in
 * the browser's first load (the shell imports SOMETHING_WENT_WRONG from here).
 */
export const BACK_SOON_HEADERS: Readonly<Record<string, string>> = { "Retry-After": "30" };

/** The alert types a refusal is shown with (a subset of the toasts' types, app/lib/toast.ts). */
export type AlertType = "danger" | "okay";

export interface DomainErrorOptions {
  /** The HTTP status of the answer: 400 unless the area's table says otherwise. */
  status?: number;
  /** The alert type the spec shows this message with; danger unless it says otherwise. */
  alertType?: AlertType;
  /** The form field the message belongs under, when it is about one field. */
  field?: string;
  /** Headers the answer carries (Retry-After of the posting limit, decision 0116). */
  headers?: Record<string, string>;
  /**
   * A page the message points to, shown beside it wherever it is shown (a toast, a form's
   * message, the composer): decision 0547's suspension refusal links to the standing page.
   */
  link?: ErrorLink;
}

/** A link beside a refusal's message (the toasts' `link`). */
export interface ErrorLink {
  to: string;
  label: string;
}

export class DomainError<Code extends string = string> extends Error {
  readonly status: number;
  readonly alertType: AlertType;
  readonly field: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly link: ErrorLink | undefined;

  constructor(
    readonly code: Code,
    message: string,
    options: DomainErrorOptions = {},
  ) {
    super(message);
    this.name = "DomainError";
    this.status = options.status ?? 400;
    this.alertType = options.alertType ?? "danger";
    this.field = options.field;
    this.headers = options.headers ?? {};
    this.link = options.link;
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}

/**
 * The statuses every area shares, so that one code means one status everywhere (decision 0140:
 * `private-campus` was 400 in the composer and 403 elsewhere, `not-found` 404 in one place
 * and 400 in the list pages).
 */
export const SHARED_STATUS = {
  "not-found": 404,
  forbidden: 403,
  "other-campus": 403,
  "private-campus": 403,
  "rate-limited": 429,
} as const satisfies Record<string, number>;

/** The status of `code` in an area whose own table is `statuses` (shared codes first). */
export function statusOf(code: string, statuses: Readonly<Record<string, number>> = {}): number {
  return (SHARED_STATUS as Record<string, number>)[code] ?? statuses[code] ?? 400;
}

/** What an answer to a failure says, whatever carries it (a route's data, a toast, JSON). */
export interface Failure {
  /** Null for an unexpected error: the caller logs it. */
  error: DomainError | null;
  status: number;
  message: string;
  alertType: AlertType;
  field: string | undefined;
  headers: Readonly<Record<string, string>>;
  /** Where the message points (DomainErrorOptions.link), if anywhere. */
  link?: ErrorLink;
}

/**
 * The one adapter's core: a domain error as it is; a database that cannot be reached as a 503
 * with Retry-After and BACK_SOON's message (decision 0470); anything else (a bug) as a 500 with the
 * area's 'Something went wrong' (`fallbackMessage`), never its own text.
 */
export function describeFailure(error: unknown, fallbackMessage: string): Failure {
  if (isDomainError(error)) {
    return {
      error,
      status: error.status,
      message: error.message,
      alertType: error.alertType,
      field: error.field,
      headers: error.headers,
      ...(error.link ? { link: error.link } : {}),
    };
  }
  if (isDatabaseUnavailable(error)) {
    return {
      error: null,
      status: 503,
      message: BACK_SOON.message,
      alertType: "danger",
      field: undefined,
      headers: BACK_SOON_HEADERS,
    };
  }
  return {
    error: null,
    status: 500,
    message: fallbackMessage,
    alertType: "danger",
    field: undefined,
    headers: {},
  };
}
