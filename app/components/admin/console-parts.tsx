import { type ReactNode, useId } from "react";
import { useFetcher } from "react-router";
import { useActionToast } from "~/app/components/ui/action-feedback";
import { Button } from "~/app/components/ui/button";
import type { ToastInput } from "~/app/lib/toast";
import { REPORT_REASON_LABELS, SUSPENSION_LABELS } from "~/server/moderation/rules.shared";

/**
 * The operator console's shared pieces (decisions 0560-0565): a titled panel, money and dates as
 * an operator reads them (UTC), and the action form every console write uses.
 */

export function Panel({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="min-w-0 rounded-2xl border border-zinc-200 bg-white p-4 md:p-6">
      <h2 id={id} className="text-base font-bold text-zinc-900 md:text-lg">
        {title}
      </h2>
      <div className="mt-3">{children}</div>
    </section>
  );
}

export function money(cents: number): string {
  const sign = cents < 0 ? "−" : "";
  return `${sign}$${(Math.abs(cents) / 100).toFixed(2)}`;
}

/** A moment as the console shows it: UTC, to the minute. */
export function utc(value: Date | string | null | undefined): string {
  if (!value) return "—";
  const date = new Date(value);
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

export function Badge({ tone, children }: { tone: "red" | "amber" | "green" | "zinc"; children: ReactNode }) {
  const tones = {
    red: "bg-red-50 text-red-800 ring-red-200",
    amber: "bg-amber-50 text-amber-900 ring-amber-200",
    green: "bg-emerald-50 text-emerald-800 ring-emerald-200",
    zinc: "bg-zinc-100 text-zinc-700 ring-zinc-200",
  } as const;
  return (
    <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ${tones[tone]}`}>
      {children}
    </span>
  );
}

/** The console forms' text inputs and selects. */
export const inputClass =
  "w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 text-base text-zinc-900 outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-600/20";

/** What an action answers: a toast, and a message under one of its fields. */
export interface ConsoleActionData {
  ok: boolean;
  toast?: ToastInput | null;
  fieldError?: { field: string; message: string };
}

export type ConsoleField = "days" | "reasonCode" | "reason" | "password";

/**
 * One console action: its own fetcher (so each form keeps its state and messages), a required
 * reason where the action takes one, and the password when the admin's sign-in is older than
 * 10 minutes (decision 0563) or the server asked for it.
 */
export function ActionForm({
  intent,
  title,
  description,
  fields,
  submitLabel,
  danger = false,
  askPassword,
  hidden = {},
}: {
  intent: string;
  title: string;
  description: string;
  fields: readonly ConsoleField[];
  submitLabel: string;
  danger?: boolean;
  askPassword: boolean;
  hidden?: Record<string, string>;
}) {
  const fetcher = useFetcher<ConsoleActionData>();
  const id = useId();
  useActionToast(fetcher.data?.toast);
  const error = fetcher.data?.fieldError;
  const errorOf = (field: string) => (error?.field === field ? error.message : undefined);
  const showPassword = fields.includes("password") && (askPassword || error?.field === "password");
  const describedBy = (field: string) => (errorOf(field) ? `${id}-${field}-error` : undefined);
  const message = (field: string) =>
    errorOf(field) ? (
      <p id={`${id}-${field}-error`} className="text-sm text-red-700">
        {errorOf(field)}
      </p>
    ) : null;
  return (
    <fetcher.Form method="post" aria-labelledby={`${id}-title`} className="flex flex-col gap-3">
      <div>
        <h3 id={`${id}-title`} className="font-semibold text-zinc-900">
          {title}
        </h3>
        <p className="text-sm text-zinc-600">{description}</p>
      </div>
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {fields.includes("days") ? (
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-days`} className="text-sm font-medium text-zinc-800">
            How long
          </label>
          <select id={`${id}-days`} name="days" className={inputClass} aria-describedby={describedBy("days")}>
            {SUSPENSION_LABELS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
          {message("days")}
        </div>
      ) : null}
      {fields.includes("reasonCode") ? (
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-reasonCode`} className="text-sm font-medium text-zinc-800">
            Reason category
          </label>
          <select
            id={`${id}-reasonCode`}
            name="reasonCode"
            className={inputClass}
            aria-describedby={describedBy("reasonCode")}
          >
            {Object.entries(REPORT_REASON_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
          {message("reasonCode")}
        </div>
      ) : null}
      {fields.includes("reason") ? (
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-reason`} className="text-sm font-medium text-zinc-800">
            Reason {fields.includes("reasonCode") ? "(the student reads it)" : "(staff only)"}
          </label>
          <textarea
            id={`${id}-reason`}
            name="reason"
            required
            maxLength={500}
            rows={2}
            className={inputClass}
            aria-invalid={errorOf("reason") ? true : undefined}
            aria-describedby={describedBy("reason")}
          />
          {message("reason")}
        </div>
      ) : null}
      {showPassword ? (
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-password`} className="text-sm font-medium text-zinc-800">
            Your password
          </label>
          <input
            id={`${id}-password`}
            name="password"
            type="password"
            autoComplete="current-password"
            maxLength={200}
            className={inputClass}
            aria-describedby={describedBy("password") ?? `${id}-password-hint`}
          />
          {message("password") ?? (
            <p id={`${id}-password-hint`} className="text-sm text-zinc-600">
              You signed in more than 10 minutes ago: confirm it is you.
            </p>
          )}
        </div>
      ) : null}
      <div>
        <Button type="submit" variant={danger ? "danger" : "secondary"} processing={fetcher.state !== "idle"}>
          {submitLabel}
        </Button>
      </div>
      <p aria-live="polite" className="sr-only">
        {fetcher.state === "idle" && fetcher.data?.toast ? fetcher.data.toast.message : ""}
      </p>
    </fetcher.Form>
  );
}
