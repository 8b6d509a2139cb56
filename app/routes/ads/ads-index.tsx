// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

/** spec 2 §2 Ads: the detail side of /ads before an ad is chosen (above 1000 px). */
export default function NoAdSelected() {
  return (
    <section className="rounded-2xl border border-dashed border-zinc-300 bg-white px-6 py-16 text-center">
      <h2 className="text-lg font-bold text-zinc-900">You don't have an ad selected</h2>
      <p className="mt-1 text-sm text-zinc-600">Choose an ad to see how it is doing.</p>
    </section>
  );
}
