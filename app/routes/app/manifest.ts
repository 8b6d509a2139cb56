import { webAppManifest } from "~/server/notifications/manifest";
import type { Route } from "./+types/manifest";

/** /manifest.webmanifest (issue 14 §3): the manifest of the campus the host serves. */
export function loader({ context }: Route.LoaderArgs) {
  return new Response(JSON.stringify(webAppManifest(context.campus)), {
    headers: {
      "Content-Type": "application/manifest+json; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
