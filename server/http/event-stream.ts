import type { RequestHandler } from "express";
import type { Auth } from "../accounts/auth";
import { getViewerFromHeaders } from "../accounts/viewer";
import type { AppContext } from "../context";
import type { RealtimeSink } from "../realtime/hub";

/**
 * `GET /events` (issue 13 §2, decision 0211): the signed-in viewer's live events as
 * server-sent events, `id:` = the event's sequence number, `event:` = its type, `data:` = its
 * JSON. A plain Express route mounted ahead of the compression middleware (main.js), which
 * would hold the stream's writes back. `Last-Event-ID` (the browser's reconnect) or `?after=`
 * (the page's `realtimeSeq`, on the first connect) says what the stream already has.
 */
export const EVENT_STREAM_PATH = "/events";

/** The browser waits this long before reconnecting a dropped stream (EventSource `retry:`). */
const RETRY_MS = 2000;

/** A stream whose reader stopped reading is ended past this much unsent data; it resumes from its Last-Event-ID. */
const MAX_BUFFERED_BYTES = 256 * 1024;

const SEQ = /^\d{1,15}$/;

/** The sequence number the stream starts after: Last-Event-ID wins over `?after=`; anything else is 0. */
export function startingSeq(lastEventId: string | undefined, after: unknown): number {
  for (const value of [lastEventId, typeof after === "string" ? after : undefined]) {
    if (value !== undefined && SEQ.test(value.trim())) return Number(value.trim());
  }
  return 0;
}

export function eventStreamHandler(deps: {
  ctx: AppContext;
  auth: Auth;
  heartbeatMs?: number;
}): RequestHandler {
  const { ctx, auth } = deps;
  const heartbeatMs = deps.heartbeatMs ?? ctx.config.realtime.heartbeatMs;
  // One timer for all of this process's streams rather than one each (an idle stream should cost little).
  const beating = new Set<() => void>();
  let beat: NodeJS.Timeout | null = null;
  const startBeating = (send: () => void) => {
    beating.add(send);
    if (!beat) {
      beat = setInterval(() => {
        for (const each of beating) each();
      }, heartbeatMs);
      beat.unref();
    }
  };
  const stopBeating = (send: () => void) => {
    beating.delete(send);
    if (beating.size === 0 && beat) {
      clearInterval(beat);
      beat = null;
    }
  };
  return async (req, res) => {
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("X-Content-Type-Options", "nosniff");
    const refuse = (status: number, message: string) => {
      res.status(status).type("application/json").send(JSON.stringify({ message }));
    };
    let viewer: Awaited<ReturnType<typeof getViewerFromHeaders>>;
    try {
      // The campus of this host, as every route reads it (an unknown host serves the default campus).
      ctx.campuses.forHost(req.headers.host);
      const cookie = req.headers.cookie;
      viewer = cookie ? await getViewerFromHeaders(ctx, auth, new Headers({ cookie })) : null;
    } catch (error) {
      ctx.log.error({ err: error }, "event stream: session lookup failed");
      return refuse(503, "Try again in a moment.");
    }
    if (!viewer) return refuse(401, "Sign in to receive live updates.");
    // The caps (decision 0211), answered before the stream starts so the browser's EventSource
    // stops rather than retrying at once; the hub checks them again when it counts the stream.
    const limits = ctx.config.realtime;
    if (ctx.realtime.streamCount(viewer.id) >= limits.maxStreamsPerUser) {
      return refuse(429, "Too many open live-update streams for this account.");
    }
    if (ctx.realtime.streamCount() >= limits.maxStreams) return refuse(503, "Try again in a moment.");

    const after = startingSeq(req.get("last-event-id"), req.query.after);
    let ended = false;
    // A comment line: proxies and browsers see traffic, the page sees nothing.
    const heartbeat = () => write(": heartbeat\n\n");
    const write = (chunk: string) => {
      if (ended) return;
      res.write(chunk);
      if (res.writableLength > MAX_BUFFERED_BYTES) finish();
    };
    const sink: RealtimeSink = {
      event(event) {
        write(`id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`);
      },
      reset(seq) {
        write(`id: ${seq}\nevent: reset\ndata: {}\n\n`);
      },
      end: () => finish(),
    };
    let subscription: { close(): void } | null = null;
    function finish() {
      if (ended) return;
      ended = true;
      stopBeating(heartbeat);
      subscription?.close();
      res.end();
    }
    req.on("close", finish);

    res.status(200);
    res.setHeader("Content-Type", "text/event-stream; charset=utf-8");
    res.setHeader("Connection", "keep-alive");
    // Proxies (nginx) would otherwise buffer the stream.
    res.setHeader("X-Accel-Buffering", "no");
    res.flushHeaders();
    res.write(`retry: ${RETRY_MS}\n\n`);

    let result: Awaited<ReturnType<AppContext["realtime"]["subscribe"]>>;
    try {
      result = await ctx.realtime.subscribe(viewer.id, after, sink);
    } catch (error) {
      ctx.log.warn({ err: error }, "event stream: could not subscribe");
      write(`event: unavailable\ndata: {}\n\n`);
      return finish();
    }
    if (!result.ok) {
      // Headers are sent: say why in the stream; the client backs off before trying again.
      write(`event: refused\ndata: ${JSON.stringify({ reason: result.reason })}\n\n`);
      return finish();
    }
    subscription = result.subscription;
    if (ended) {
      subscription.close();
      return;
    }
    startBeating(heartbeat);
  };
}
