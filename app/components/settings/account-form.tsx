import { type FormEvent, type ReactNode, useCallback, useLayoutEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { useHydrated } from "~/app/lib/hydrated";

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
  const requireChange = options.requireChange ?? true;
  const everyField = options.everyField ?? true;
  const savedKey = JSON.stringify(saved);

  const check = useCallback(
    (form: HTMLFormElement): boolean => {
      const values = new FormData(form);
      const before: Record<string, string> = JSON.parse(savedKey);
      let changed = false;
      let filled = 0;
      const entries = Object.entries(before);
      for (const [name, savedValue] of entries) {
        const value = String(values.get(name) ?? "").trim();
        if (value !== "") filled++;
        if (value !== savedValue) changed = true;
      }
      const empty = everyField ? filled < entries.length : filled === 0;
      return !empty && (changed || !requireChange);
    },
    [savedKey, requireChange, everyField],
  );

  // After every render: the browser may have filled the form, and a save re-renders it with the new
  // saved values (the inputs remount). Setting the same value again renders nothing. A layout effect,
  // so the button is never painted disabled over a filled form: when hydration switches the rule on,
  // a click in between would land on a disabled button and be lost.
  useLayoutEffect(() => {
    if (formRef.current) setEnabled(check(formRef.current));
  });

  return {
    formRef,
    onChange: (event: FormEvent<HTMLFormElement>) => setEnabled(check(event.currentTarget)),
    disabled: hydrated && !enabled,
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
