import { orNotFound } from "~/app/lib/errors.server";
import { requireUser } from "~/app/lib/viewer.server";
import { openDataExport } from "~/server/privacy/export";
import { archiveStream } from "~/server/privacy/export-files";
import type { Route } from "./+types/data-download";

/**
 * Decision 0570: the mailed link to a student's data archive. Only the signed-in owner, once,
 * within 7 days; anything else is the ordinary 404. Never stored by any cache.
 */
export async function loader(args: Route.LoaderArgs) {
  const viewer = await requireUser(args);
  const token = new URL(args.request.url).searchParams.get("token") ?? "";
  const archive = await orNotFound(openDataExport(args.context.app, viewer, token.slice(0, 64)));
  return new Response(archiveStream(archive.path), {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="${archive.fileName}"`,
      "Content-Length": String(archive.bytes),
      "Cache-Control": "no-store",
      "Referrer-Policy": "no-referrer",
    },
  });
}
