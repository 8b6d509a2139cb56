import { type DefaultValue, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { type InputHTMLAttributes, useId } from "react";
import type { z } from "zod";

export interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  /** The spec's validation message for this field, shown under it and announced. */
  error?: string | null;
  hint?: string;
}

/** A labelled input with its error message wired for screen readers. */
export function Field({ label, error, hint, id, className = "", ...input }: FieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={inputId} className="text-sm font-medium text-zinc-800">
        {label}
      </label>
      <input
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={`rounded-lg border bg-white px-3 py-2.5 text-base text-zinc-900 outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-600/20 ${error ? "border-red-500" : "border-zinc-300"}`}
        {...input}
      />
      {hint ? (
        <p id={hintId} className="text-xs text-zinc-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * What ConformField needs of a Conform field (`fields.email` from useForm): a structural type, so
 * any field of any schema fits without generics.
 */
export interface ConformFieldMeta {
  key?: string;
  id: string;
  name: string;
  initialValue?: unknown;
  errors?: string[];
}

/**
 * The one way to put a Conform field on a page (decision 0145): its name, id, saved value and
 * first message come from Conform; the label and the input's own attributes from the caller.
 */
export function ConformField({
  meta,
  ...props
}: { meta: ConformFieldMeta } & Omit<FieldProps, "id" | "name" | "defaultValue" | "error">) {
  return (
    <Field
      // A reset (a new saved value, or `resetForm`) gives Conform a new key: the input starts afresh.
      key={meta.key}
      id={meta.id}
      name={meta.name}
      defaultValue={typeof meta.initialValue === "string" ? meta.initialValue : undefined}
      error={meta.errors?.[0]}
      {...props}
    />
  );
}

/**
 * The one Conform setup of the app's forms (decision 0145): the form's Zod schema validates in the
 * browser as on the server; a field is first checked when it is left ("onBlur", or "onSubmit"
 * where a message while choosing would only be noise), then again on every keystroke.
 */
export function useSchemaForm<Schema extends z.ZodType<unknown, Record<string, unknown>>>(
  schema: Schema,
  options: {
    id?: string;
    lastResult: SubmissionResult<string[]> | null | undefined;
    defaultValue?: DefaultValue<z.input<Schema>>;
    validate?: "onBlur" | "onSubmit";
  },
) {
  return useForm<z.input<Schema>, z.output<Schema>>({
    id: options.id,
    lastResult: options.lastResult,
    defaultValue: options.defaultValue,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: options.validate ?? "onBlur",
    shouldRevalidate: "onInput",
  });
}
