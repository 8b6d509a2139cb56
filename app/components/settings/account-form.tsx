import { type DefaultValue, type FormMetadata, getFormProps } from "@conform-to/react";
import { type FormEvent, type ReactNode, useCallback, useLayoutEffect, useRef, useState } from "react";
import { Form, Link } from "react-router";
import type { z } from "zod";
import { SettingsPage } from "~/app/components/settings/settings-page";
import { NoScriptMessage, useActionToast, useSubmitting } from "~/app/components/ui/action-feedback";
import { Button } from "~/app/components/ui/button";
import { ConformField, type FieldProps, useSchemaForm } from "~/app/components/ui/field";
import { useHydrated } from "~/app/lib/hydrated";
import type { AccountActionData } from "~/app/routes/settings/account/account-action.server";

/**
 * spec 1 §4: 'Save buttons are disabled when the value is unchanged or empty.'
 * Compares the form's current values (trimmed) with the saved ones. Before
 * JavaScript runs the button stays enabled and the server applies the same rules.
 */
export function useSaveEnabled(
  saved: Record<string, string>,
  options: {
    /** False where there is nothing saved to compare with (a password). */
    requireChange?: boolean;
    /** False where one form value is made of several inputs (a birth date): empty means all empty. */
    everyField?: boolean;
  } = {},
) {
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  const [enabled, setEnabled] = useState(false);
  // The names of the fields left empty, joined: a string, so setting the same again renders nothing.
  const [emptyKey, setEmptyKey] = useState("");
  const requireChange = options.requireChange ?? true;
  const everyField = options.everyField ?? true;
  const savedKey = JSON.stringify(saved);

  const check = useCallback(
    (form: HTMLFormElement): { enabled: boolean; emptyKey: string } => {
      const values = new FormData(form);
      const before: Record<string, string> = JSON.parse(savedKey);
      let changed = false;
      const emptyNames: string[] = [];
      const entries = Object.entries(before);
      for (const [name, savedValue] of entries) {
        const value = String(values.get(name) ?? "").trim();
        if (value === "") emptyNames.push(name);
        if (value !== savedValue) changed = true;
      }
      const empty = everyField ? emptyNames.length > 0 : emptyNames.length === entries.length;
      return { enabled: !empty && (changed || !requireChange), emptyKey: emptyNames.join(",") };
    },
    [savedKey, requireChange, everyField],
  );
  const update = useCallback(
    (form: HTMLFormElement) => {
      const result = check(form);
      setEnabled(result.enabled);
      setEmptyKey(result.emptyKey);
    },
    [check],
  );

  // After every render: the browser may have filled the form, and a save re-renders it with the new
  // saved values (the inputs remount). Setting the same value again renders nothing. A layout effect,
  // so the button is never painted disabled over a filled form: when hydration switches the rule on,
  // a click in between would land on a disabled button and be lost.
  useLayoutEffect(() => {
    if (formRef.current) update(formRef.current);
  });

  return {
    formRef,
    onChange: (event: FormEvent<HTMLFormElement>) => update(event.currentTarget),
    disabled: hydrated && !enabled,
    /** The required fields still empty, by name (the sign-up form says which, spec 1 §5 'Register'). */
    empty: emptyKey === "" ? [] : emptyKey.split(","),
  };
}

/** A line of help under a settings form, e.g. the link to /forgotpassword. */
export function AccountFormNote({ children }: { children: ReactNode }) {
  return <p className="text-sm text-zinc-600">{children}</p>;
}

export function AccountTextLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link
      to={to}
      className="rounded font-semibold text-brand-600 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
    >
      {children}
    </Link>
  );
}

/** A form-level message (one that belongs to no single field), announced when it appears. */
export function AccountFormError({ id, message }: { id?: string; message: string | null | undefined }) {
  return (
    <p id={id} role="alert" aria-live="assertive" className={message ? "text-sm text-red-600" : "sr-only"}>
      {message ?? ""}
    </p>
  );
}

type SaveEnabledOptions = Parameters<typeof useSaveEnabled>[1];

/**
 * One settings form's state (decision 0145): its Conform form over the schema, started from the saved
 * values, and the Save rule over the same values. A new saved value (a different `id`) starts afresh.
 */
export function useAccountForm<Schema extends z.ZodType<unknown, Record<string, string>>>(
  schema: Schema,
  options: {
    saved: Record<string, string>;
    actionData: AccountActionData | undefined;
    id?: string;
    validate?: "onBlur" | "onSubmit";
    save?: SaveEnabledOptions;
  },
) {
  const save = useSaveEnabled(options.saved, options.save);
  const [form, fields] = useSchemaForm(schema, {
    id: options.id,
    lastResult: options.actionData?.result,
    // The saved values are the schema's input fields by construction (each form passes its own).
    defaultValue: options.saved as DefaultValue<z.input<Schema>>,
    validate: options.validate,
  });
  return { form, fields, save, actionData: options.actionData };
}

/**
 * The one settings form (spec 1 §2 /settings/account/*): the page, the no-script message, the form
 * with its fields and notes, and Save (disabled while unchanged or empty, spinning while saving).
 */
export function SettingsForm<Schema extends Record<string, unknown>>({
  title,
  account,
  submitLabel = "Save",
  intro,
  children,
}: {
  title: string;
  account: {
    form: FormMetadata<Schema, string[]>;
    save: ReturnType<typeof useSaveEnabled>;
    actionData: AccountActionData | undefined;
  };
  submitLabel?: string;
  /** Shown above the form, e.g. what the school e-mail is for. */
  intro?: ReactNode;
  children: ReactNode;
}) {
  const submitting = useSubmitting();
  const { form, save, actionData } = account;
  useActionToast(actionData?.toast);
  return (
    <SettingsPage title={title} backTo="/settings/account">
      {intro}
      <NoScriptMessage toast={actionData?.toast} />
      <Form
        method="post"
        {...getFormProps(form)}
        ref={save.formRef}
        onChange={save.onChange}
        className="flex flex-col gap-4"
      >
        {children}
        <Button type="submit" className="self-start" processing={submitting} disabled={save.disabled}>
          {submitLabel}
        </Button>
      </Form>
    </SettingsPage>
  );
}

/**
 * A settings form of one text field (spec 1 §2 /settings/account/email, phone, screen_name): the
 * field started from its saved value, a note under it, and Save. The field's input attributes
 * (label, type, autocomplete, length) come from the caller. A new saved value starts it afresh.
 */
export function OneFieldSettingsForm<Schema extends z.ZodType<unknown, Record<string, string>>>({
  title,
  schema,
  name,
  saved,
  actionData,
  note,
  ...input
}: {
  title: string;
  schema: Schema;
  name: keyof z.input<Schema> & string;
  saved: string;
  actionData: AccountActionData | undefined;
  note: ReactNode;
} & Omit<FieldProps, "id" | "name" | "defaultValue" | "error">) {
  const account = useAccountForm(schema, { id: `${name}-${saved}`, saved: { [name]: saved }, actionData });
  return (
    <SettingsForm title={title} account={account}>
      <ConformField meta={account.fields[name]} {...input} />
      <AccountFormNote>{note}</AccountFormNote>
    </SettingsForm>
  );
}
