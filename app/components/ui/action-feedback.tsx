import { useEffect } from "react";
import { useNavigation } from "react-router";
import { useHydrated } from "~/app/lib/hydrated";
import type { ToastInput } from "~/app/lib/toast";
import { useToast } from "./toaster";

/**
 * An error an action answers with (spec 1 §8) is a toast. The action hands it back
 * in its data rather than in the toast cookie: the page stays where it is, and
 * without JavaScript the cookie would only be read by the next page.
 */
export function useActionToast(toast: ToastInput | null | undefined): void {
  const { show } = useToast();
  useEffect(() => {
    if (toast) show(toast);
  }, [toast, show]);
}

/** Without JavaScript no toast can show: the page prints the action's message instead. */
export function NoScriptMessage({ toast }: { toast: ToastInput | null | undefined }) {
  const hydrated = useHydrated();
  if (hydrated || !toast) return null;
  const tone =
    toast.type === "danger" ? "bg-red-50 text-red-800 ring-red-200" : "bg-sky-50 text-sky-900 ring-sky-200";
  return (
    <p
      role={toast.type === "danger" ? "alert" : "status"}
      className={`mb-4 rounded-lg px-3 py-2 text-sm ring-1 ${tone}`}
    >
      {toast.message}
    </p>
  );
}

/** Whether this page's form with the given intent is being submitted ('Processing...', spec 1 §4). */
export function useSubmitting(intent?: string): boolean {
  const navigation = useNavigation();
  if (navigation.state !== "submitting") return false;
  return intent === undefined || navigation.formData?.get("intent") === intent;
}
