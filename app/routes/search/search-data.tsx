import { getViewer } from "~/app/lib/viewer.server";
import { describeFailure } from "~/server/errors.shared";
import { toMediaTiles } from "~/server/posts/media-tiles";
import { POST_MESSAGES } from "~/server/posts/post-rules.shared";
import { searchPeople } from "~/server/search/people";
import { searchPosts } from "~/server/search/posts";
import { readSearchFilters } from "~/server/search/read-filters";
import { getSearchSuggestions } from "~/server/search/suggestions";
import type { Route } from "./+types/search-data";

/**
 * `GET /search/data?kind=…` (decision 0194): the header dropdown's suggestions
 * (`kind=suggest&q=`) and the next pages of /search's tabs as JSON (`kind=latest|media|people&q=
 * &cursor=`, the same shape as /api/lists, decision 0106). The first page of each tab stays in
 * /search's loader; these record nothing in the search history.
 */
export async function loader(args: Route.LoaderArgs) {
  const { context, request } = args;
  const url = new URL(request.url);
  const kind = url.searchParams.get("kind");
  const q = (url.searchParams.get("q") ?? "").slice(0, 200);
  const headers = { "Cache-Control": "private, no-store" };
  if (context.campus.generic) return Response.json({ message: "Not Found" }, { status: 404, headers });
  try {
    const viewer = await getViewer(args);
    const campusId = context.campus.id;
    if (kind === "suggest") {
      return Response.json(await getSearchSuggestions(context.app, viewer, { campusId, text: q }), {
        headers,
      });
    }
    const cursor = url.searchParams.get("cursor");
    if (!cursor) return Response.json({ message: POST_MESSAGES.badCursor }, { status: 400, headers });
    if (kind === "people") {
      return Response.json(
        { page: await searchPeople(context.app, viewer, { campusId, text: q, cursor }) },
        { headers },
      );
    }
    if (kind === "latest" || kind === "media") {
      const page = await searchPosts(context.app, viewer, {
        campusId,
        q,
        show: kind,
        filters: readSearchFilters(url.searchParams),
        cursor,
      });
      const items = kind === "media" ? toMediaTiles(page.items) : page.items;
      return Response.json({ page: { items, nextCursor: page.nextCursor } }, { headers });
    }
    return Response.json({ message: "Not Found" }, { status: 404, headers });
  } catch (error) {
    // The one error path (decision 0140).
    const failure = describeFailure(error, POST_MESSAGES.somethingWentWrong);
    if (!failure.error) context.app.log.error({ err: error }, "search data failed");
    return Response.json({ message: failure.message }, { status: failure.status, headers });
  }
}
