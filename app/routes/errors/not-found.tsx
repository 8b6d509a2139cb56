import { data } from "react-router";
import { pageTitle } from "~/app/components/shell/campus";
import { ErrorPanel, GoToFeed, NOT_FOUND_TEXT } from "~/app/components/shell/route-error-boundary";
import type { Route } from "./+types/not-found";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

/** /404 and every unknown path (spec 1 §2): the page answers with status 404. */
export function loader() {
  return data({ notFound: true }, { status: 404 });
}

export function meta({ matches }: Route.MetaArgs) {
  return [
    { title: pageTitle("Error 404", matches[0]?.loaderData?.campus) },
    { name: "robots", content: "noindex" },
  ];
}

export default function NotFound() {
  return (
    <ErrorPanel titleId="not-found-title" title="Error 404" actions={<GoToFeed />}>
      {NOT_FOUND_TEXT}
    </ErrorPanel>
  );
}
