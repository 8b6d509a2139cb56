/**
 * A submission's `intent` as the browser sends it (a fetcher's or navigation's `formData`, a
 * `shouldRevalidate`'s), for pending states and revalidation: not a form the action parses (that
 * goes through app/lib/form.server.ts). A route reads it here, never with `formData.get(…)`
 * (decision 0490). No submission, or no intent: null.
 */
export function submittedIntent(formData: FormData | undefined): string | null {
  const intent = formData?.get("intent");
  return typeof intent === "string" ? intent : null;
}
