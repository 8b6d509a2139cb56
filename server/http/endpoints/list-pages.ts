import type { Request, RequestHandler, Response } from "express";
import { z } from "zod";
import type { Auth } from "../../accounts/auth";
import { getViewerFromHeaders } from "../../accounts/viewer";
import { listFeedWithAds } from "../../ads/feed-insertion";
import type { AppContext } from "../../context";
import { describeFailure } from "../../errors.shared";
import { listPage } from "../../posts/feed";
import { isPostListName, isTileList, LIST_PAGES_PATH } from "../../posts/list-names.shared";
import { toMediaTiles } from "../../posts/media-tiles";
import { POST_MESSAGES } from "../../posts/schemas";
import { compressBody, preferredEncoding } from "../compress";

/**
 * `GET /api/lists/{list}?cursor=…`: the next page of a post list as JSON (decision
 * 0106): post summaries, or tiles for the media grids. Infinite scroll asks for one every few seconds while a student reads; served
 * here rather than through React Router's single fetch, it costs little more than
 * its query (bench/README.md). The first page of every list stays in its page's loader,
 * and without JavaScript the 'Load more' links open the pages' own `?cursor=` addresses.
 */
export const LIST_PAGES_ROUTE = `${LIST_PAGES_PATH}/:list`;

const listPageQuerySchema = z.object({
  cursor: z.string().min(1).max(200),
  category: z.string().max(100).optional(),
  user: z.string().min(1).max(200).optional(),
  // Decision 0170: the feed's 'Free' filter and 'Show sold' toggle, as the pages' addresses carry them.
  free: z.literal("1").optional(),
  sold: z.literal("1").optional(),
});

/** Smaller answers are sent as they are: compressing them would not pay. */
const COMPRESS_FROM_BYTES = 1024;

/** Without a cookie there is no session to look up (the common case: a visitor scrolling). */
const NO_HEADERS = new Headers();

export function listPagesHandler(deps: {
  ctx: AppContext;
  auth: Auth;
  /** The geo gate's decision for this request (spec 1 §6): the feed is /home's list. */
  admitsFeed(req: Request): Promise<boolean>;
}): RequestHandler {
  const { ctx, auth } = deps;
  return async (req, res) => {
    const list = String(req.params.list);
    if (!isPostListName(list)) return sendJson(req, res, 404, { message: "Not Found" });
    const query = listPageQuerySchema.safeParse(req.query);
    if (!query.success) return sendJson(req, res, 400, { message: POST_MESSAGES.badCursor });
    try {
      if (list === "feed" && !(await deps.admitsFeed(req))) {
        return sendJson(req, res, 404, { message: "Not Found" });
      }
      const cookie = req.headers.cookie;
      const viewer = await getViewerFromHeaders(ctx, auth, cookie ? new Headers({ cookie }) : NO_HEADERS);
      const input = {
        campusId: ctx.campuses.forHost(req.headers.host).id,
        cursor: query.data.cursor,
        category: query.data.category,
        userId: query.data.user,
        free: query.data.free === "1",
        showSold: query.data.sold === "1",
      };
      // The feed with its sponsored posts (decision 0274).
      const page =
        list === "feed"
          ? await listFeedWithAds(ctx, viewer, input)
          : await listPage(ctx, viewer, list, input);
      // The grids get tiles, as their pages' loaders give them (media-tiles.ts: no text).
      if (isTileList(list)) {
        sendJson(req, res, 200, { page: { items: toMediaTiles(page.items), nextCursor: page.nextCursor } });
      } else {
        sendJson(req, res, 200, { page });
      }
    } catch (error) {
      // The one error path (decision 0140): the refusal's own status and message, as the pages give them.
      const failure = describeFailure(error, POST_MESSAGES.somethingWentWrong);
      if (!failure.error) ctx.log.error({ err: error, path: req.path }, "list page failed");
      // Retry-After of a database outage (decision 0470) or of a limit.
      for (const [name, value] of Object.entries(failure.headers)) res.setHeader(name, value);
      sendJson(req, res, failure.status, { message: failure.message });
    }
  };
}

/** The answer in one piece, compressed here in one call when the client accepts it (server/http/compress.ts). */
function sendJson(req: Request, res: Response, status: number, value: unknown): void {
  let body: Buffer = Buffer.from(JSON.stringify(value));
  res.status(status);
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  // Per viewer (saved marks, private campuses) and always current.
  res.setHeader("Cache-Control", "private, no-store");
  // Mounted ahead of securityHeaders (app.ts): a JSON answer is never to be read as a page or script.
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Vary", "Accept-Encoding");
  const encoding =
    body.length >= COMPRESS_FROM_BYTES ? preferredEncoding(req.headers["accept-encoding"]) : null;
  if (encoding) {
    body = compressBody(body, encoding);
    res.setHeader("Content-Encoding", encoding);
  }
  res.setHeader("Content-Length", body.length);
  res.end(body);
}
