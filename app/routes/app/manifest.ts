import { webAppManifest } from "~/server/notifications/manifest";
import type { Route } from "./+types/manifest";

// A resource route: no component, so no ErrorBoundary (exporting one would make it a page that
// renders the document; app/routes/error-boundaries.test.ts exempts routes without a component).

/** /manifest.webmanifest (decision 0253): the manifest of the campus the host serves. */
export function loader({ context }: Route.LoaderArgs) {
  return new Response(JSON.stringify(webAppManifest(context.campus)), {
    headers: {
      "Content-Type": "application/manifest+json; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
