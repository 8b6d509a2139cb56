import type { RequestHandler, Response } from "express";
import type { Auth } from "../../accounts/auth";
import { getViewerFromHeaders } from "../../accounts/viewer";
import type { AppContext } from "../../context";
import type { StoredRealtimeEvent } from "../../realtime/events";
import type { RealtimeSink, RealtimeSubscription, SubscribeResult } from "../../realtime/hub";

/**
 * `GET /events` (decision 0211): the signed-in viewer's live events as
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

/** TCP keep-alive probes on an idle stream start after this long. */
const KEEPALIVE_MS = 60_000;

const SEQ = /^\d{1,15}$/;

/** The sequence number the stream starts after: Last-Event-ID wins over `?after=`; anything else is 0. */
export function startingSeq(lastEventId: string | undefined, after: unknown): number {
  for (const value of [lastEventId, typeof after === "string" ? after : undefined]) {
    if (value !== undefined && SEQ.test(value.trim())) return Number(value.trim());
  }
  return 0;
}

/**
 * One open stream: the response and what the stream needs, as ONE object whose methods live on
 * the prototype (rather than a handful of closures per stream), because an idle stream should
 * cost the process little (decision 0211: ≤ 50 KB, most of it Node's own socket and HTTP objects).
 */
class OpenStream implements RealtimeSink {
  ended = false;
  subscription: RealtimeSubscription | null = null;

  constructor(
    private readonly res: Response,
    private readonly streams: Set<OpenStream>,
  ) {}

  write(chunk: string): void {
    if (this.ended) return;
    this.res.write(chunk);
    if (this.res.writableLength > MAX_BUFFERED_BYTES) this.finish();
  }

  event(event: StoredRealtimeEvent): void {
    this.write(`id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`);
  }

  reset(seq: number): void {
    this.write(`id: ${seq}\nevent: reset\ndata: {}\n\n`);
  }

  end(): void {
    this.finish();
  }

  finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.streams.delete(this);
    this.subscription?.close();
    this.subscription = null;
    this.res.end();
  }
}

/** A comment line: proxies and browsers see traffic, the page sees nothing. */
const HEARTBEAT = ": heartbeat\n\n";

export function eventStreamHandler(deps: {
  ctx: AppContext;
  auth: Auth;
  heartbeatMs?: number;
}): RequestHandler {
  const { ctx, auth } = deps;
  const heartbeatMs = deps.heartbeatMs ?? ctx.config.realtime.heartbeatMs;
  // One timer for all of this process's streams rather than one each.
  const streams = new Set<OpenStream>();
  let beat: NodeJS.Timeout | null = null;
  const startBeating = (stream: OpenStream) => {
    streams.add(stream);
    if (!beat) {
      beat = setInterval(() => {
        for (const each of streams) each.write(HEARTBEAT);
        if (streams.size === 0 && beat) {
          clearInterval(beat);
          beat = null;
        }
      }, heartbeatMs);
      beat.unref();
    }
  };
  return async (req, res) => {
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("X-Content-Type-Options", "nosniff");
    const refuse = (status: number, message: string) => {
      res.status(status).type("application/json").send(JSON.stringify({ message }));
    };
    let viewerId: string;
    try {
      // The campus of this host, as every route reads it (an unknown host serves the default campus).
      ctx.campuses.forHost(req.headers.host);
      const cookie = req.headers.cookie;
      const viewer = cookie ? await getViewerFromHeaders(ctx, auth, new Headers({ cookie })) : null;
      if (!viewer) return refuse(401, "Sign in to receive live updates.");
      viewerId = viewer.id;
    } catch (error) {
      ctx.log.error({ err: error }, "event stream: session lookup failed");
      return refuse(503, "Try again in a moment.");
    }
    // The caps (decision 0211), answered before the stream starts so the browser's EventSource
    // stops rather than retrying at once; the hub checks them again when it counts the stream.
    const limits = ctx.config.realtime;
    if (ctx.realtime.streamCount(viewerId) >= limits.maxStreamsPerUser) {
      return refuse(429, "Too many open live-update streams for this account.");
    }
    if (ctx.realtime.streamCount() >= limits.maxStreams) return refuse(503, "Try again in a moment.");

    const after = startingSeq(req.get("last-event-id"), req.query.after);
    const stream = new OpenStream(res, streams);
    req.once("close", () => stream.finish());

    res.status(200);
    res.setHeader("Content-Type", "text/event-stream; charset=utf-8");
    res.setHeader("Connection", "keep-alive");
    // Proxies (nginx) would otherwise buffer the stream.
    res.setHeader("X-Accel-Buffering", "no");
    res.flushHeaders();
    // A peer that vanished without a FIN (a phone losing its network) is found by TCP too, not
    // only by a heartbeat write that never completes.
    req.socket.setKeepAlive(true, KEEPALIVE_MS);
    stream.write(`retry: ${RETRY_MS}\n\n`);

    let result: SubscribeResult;
    try {
      result = await ctx.realtime.subscribe(viewerId, after, stream);
    } catch (error) {
      ctx.log.warn({ err: error }, "event stream: could not subscribe");
      stream.write(`event: unavailable\ndata: {}\n\n`);
      return stream.finish();
    }
    if (!result.ok) {
      // Headers are sent: say why in the stream; the client backs off before trying again.
      stream.write(`event: refused\ndata: ${JSON.stringify({ reason: result.reason })}\n\n`);
      return stream.finish();
    }
    if (stream.ended) {
      result.subscription.close();
      return;
    }
    stream.subscription = result.subscription;
    startBeating(stream);
  };
}
