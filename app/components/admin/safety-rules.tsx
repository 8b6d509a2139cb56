import { type ReactNode, useEffect, useId, useRef } from "react";
import { useFetcher } from "react-router";
import { useActionToast } from "~/app/components/ui/action-feedback";
import { Button } from "~/app/components/ui/button";
import type { AdminSafetyRule } from "~/server/safety/admin-rules";
import { SAFETY_ACTION_LABELS, SAFETY_SCOPE_LABELS } from "~/server/safety/admin-rules.shared";
import { Badge, type ConsoleActionData, inputClass, Panel } from "./console-parts";

/** Decision 0654: /admin/safety's pieces — the add-a-rule form and one rule with its switch. */

function FormField({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  error: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-zinc-800">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-zinc-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-700" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function AddSafetyRuleForm() {
  const fetcher = useFetcher<ConsoleActionData>();
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  useActionToast(fetcher.data?.toast);
  const done = fetcher.state === "idle" && fetcher.data?.ok === true;
  useEffect(() => {
    if (done) form.current?.reset();
  }, [done]);
  const error = fetcher.data?.fieldError;
  const errorOf = (field: string) => (error?.field === field ? error.message : undefined);
  const described = (field: string, hint = false) =>
    [errorOf(field) ? `${id}-${field}-error` : null, hint ? `${id}-${field}-hint` : null]
      .filter(Boolean)
      .join(" ") || undefined;
  const attrs = (field: string, hint = false) => ({
    id: `${id}-${field}`,
    name: field,
    className: inputClass,
    "aria-invalid": errorOf(field) ? true : undefined,
    "aria-describedby": described(field, hint),
  });
  return (
    <Panel title="Add a rule" id="add-rule-title">
      <fetcher.Form ref={form} method="post" className="grid grid-cols-1 gap-3 md:grid-cols-3">
        <input type="hidden" name="intent" value="add-rule" />
        <FormField
          id={`${id}-name`}
          label="Name"
          hint="Lower-case words joined by hyphens."
          error={errorOf("name")}
        >
          <input
            {...attrs("name", true)}
            required
            maxLength={60}
            autoComplete="off"
            placeholder="fake-tickets"
          />
        </FormField>
        <FormField id={`${id}-scope`} label="Applies to" error={errorOf("scope")}>
          <select {...attrs("scope")} defaultValue="chat">
            {Object.entries(SAFETY_SCOPE_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </FormField>
        <FormField id={`${id}-action`} label="Action" error={errorOf("action")}>
          <select {...attrs("action")} defaultValue="warn">
            {Object.entries(SAFETY_ACTION_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </FormField>
        <div className="md:col-span-3">
          <FormField
            id={`${id}-pattern`}
            label="Pattern"
            hint='Words or phrases, one per line (a match on any of them), or the matcher&apos;s JSON, like {"kind":"terms","terms":["tickets"],"near":["transfer"],"window":4}. Never a regular expression.'
            error={errorOf("pattern")}
          >
            <textarea {...attrs("pattern", true)} required rows={3} maxLength={4000} spellCheck={false} />
          </FormField>
        </div>
        <div className="md:col-span-3">
          <FormField
            id={`${id}-message`}
            label="Message"
            hint="What the writer reads (block, nudge) or the recipient's card says (warn)."
            error={errorOf("message")}
          >
            <textarea {...attrs("message", true)} required rows={2} maxLength={500} />
          </FormField>
        </div>
        <label className="flex items-center gap-2 text-sm text-zinc-800 md:col-span-2">
          <input type="checkbox" name="countsTowardFlag" className="size-4" />
          Counts toward the flag (warnings only)
        </label>
        <div className="md:text-right">
          <Button type="submit" variant="secondary" processing={fetcher.state !== "idle"}>
            Add rule
          </Button>
        </div>
      </fetcher.Form>
    </Panel>
  );
}

export function SafetyRuleCard({ rule }: { rule: AdminSafetyRule }) {
  const fetcher = useFetcher<ConsoleActionData>();
  useActionToast(fetcher.data?.toast);
  const titleId = `rule-${rule.id}`;
  return (
    <li
      aria-labelledby={titleId}
      className={`min-w-0 rounded-2xl border border-zinc-200 p-4 ${rule.enabled ? "bg-white" : "bg-zinc-50"}`}
      data-testid="safety-rule"
    >
      <h2 id={titleId} className="font-mono text-base font-semibold break-all text-zinc-900">
        {rule.name}
      </h2>
      <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-zinc-600">
        <span>{SAFETY_SCOPE_LABELS[rule.scope]}</span>
        <span aria-hidden="true">·</span>
        <span>{SAFETY_ACTION_LABELS[rule.action]}</span>
        {rule.countsTowardFlag ? <Badge tone="amber">Counts toward the flag</Badge> : null}
        <Badge tone="zinc">{rule.builtin ? "Built-in" : "Added"}</Badge>
        {rule.enabled ? <Badge tone="green">On</Badge> : <Badge tone="red">Off</Badge>}
      </p>
      <p className="mt-2 text-sm break-words text-zinc-800">{rule.message}</p>
      <div className="mt-2 flex flex-wrap items-start justify-between gap-3">
        <details className="min-w-0 flex-1 basis-48 text-sm">
          <summary className="cursor-pointer py-2 text-zinc-600">Pattern</summary>
          <pre className="mt-1 max-h-48 overflow-auto rounded-lg bg-zinc-50 p-2 text-xs break-all whitespace-pre-wrap text-zinc-800">
            {rule.pattern}
          </pre>
        </details>
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="switch-rule" />
          <input type="hidden" name="ruleId" value={rule.id} />
          <input type="hidden" name="enabled" value={rule.enabled ? "false" : "true"} />
          <button
            type="submit"
            disabled={fetcher.state !== "idle"}
            aria-label={`${rule.enabled ? "Switch off" : "Switch on"}: ${rule.name}`}
            className="rounded-full border border-zinc-300 px-4 py-2 text-sm font-semibold hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:text-zinc-400"
          >
            {rule.enabled ? "Switch off" : "Switch on"}
          </button>
        </fetcher.Form>
      </div>
    </li>
  );
}
