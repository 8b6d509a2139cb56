import { Link, useLocation } from "react-router";
import { pageTitle } from "~/app/components/shell/campus";
import { buttonClass } from "~/app/components/ui/button";
import type { Route } from "./+types/coming-soon";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Coming soon", matches[0]?.loaderData?.campus) }];
}

/** Honest placeholder for screens later releases build (the shell links to them already). */
export default function ComingSoon() {
  const location = useLocation();
  return (
    <section
      aria-labelledby="coming-soon-title"
      className="mt-4 rounded-2xl border border-zinc-200 bg-white px-6 py-12 text-center md:mt-8 md:py-16"
    >
      <span className="inline-flex rounded-full bg-brand-50 px-3 py-1 text-xs font-semibold tracking-wide text-brand-700 uppercase">
        In the works
      </span>
      <h1 id="coming-soon-title" className="mt-4 text-2xl font-bold tracking-tight text-zinc-900">
        Coming soon
      </h1>
      <p className="mx-auto mt-3 max-w-sm text-zinc-600">
        <code className="rounded bg-zinc-100 px-1.5 py-0.5 text-sm text-zinc-800">{location.pathname}</code>{" "}
        is not built yet. It arrives in an upcoming release of Campus Buy Sell.
      </p>
      <Link to="/home" className={buttonClass("primary", "mt-8")}>
        Go To Feed
      </Link>
    </section>
  );
}
