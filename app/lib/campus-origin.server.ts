import type { AppLoadContext } from "react-router";
import { campusOrigin } from "~/server/campuses/campuses";

/**
 * The origin of links to a campus (by default this request's) for mail and pages: the host the
 * request came to only when the configuration names it as that campus's (decision 0110).
 */
export function campusOriginOf(
  request: Request,
  context: Pick<AppLoadContext, "app" | "campus">,
  campusId: string = context.campus.id,
): string {
  return campusOrigin(campusId, new URL(request.url).host, context.app.config);
}
