import pg from "pg";
import type { DatabaseHandle } from "../db/client";
import type { Logger } from "../logger";
import { PAGE_CACHE_CHANNEL, REALTIME_CHANNEL, TEST_CLOCK_CHANNEL } from "./events";

/**
 * The hub's one listening connection per process (decision 0213): LISTEN on the realtime and
 * page-cache channels, on PGlite in-process or on PostgreSQL through a dedicated client.
 */

/** The listening connection's application_name (pg_stat_activity shows which connection it is). */
export const LISTENER_NAME = "cbs-realtime-listener";

/** What the listening connection does for the hub, on PostgreSQL or PGlite alike. */
export interface Listener {
  /** Resolves once LISTEN is in place. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** The channels the listening connection LISTENs on. */
const CHANNELS = [REALTIME_CHANNEL, PAGE_CACHE_CHANNEL, TEST_CLOCK_CHANNEL] as const;

/** PGlite delivers NOTIFY in-process at commit: the same hub, one process. */
export function pgliteListener(
  client: NonNullable<DatabaseHandle["pglite"]>,
  onMessage: (channel: string, payload: string) => void,
): Listener {
  const unlistens = Promise.all(
    CHANNELS.map((channel) => client.listen(channel, (payload) => onMessage(channel, payload))),
  );
  return {
    ready: () => unlistens.then(() => {}),
    async close() {
      if (client.closed) return;
      for (const unlisten of await unlistens) await unlisten();
    },
  };
}

/**
 * A dedicated pg.Client (never a pooled one: LISTEN belongs to its session) that LISTENs,
 * pings, and after losing its connection reconnects with back-off, LISTENs again and
 * resyncs every stream (a NOTIFY sent while it was away is lost; the rows are not).
 */
export function postgresListener(
  database: DatabaseHandle,
  onMessage: (channel: string, payload: string | undefined) => void,
  resync: () => void,
  log: Logger,
  options: { reconnectMs?: number; pingMs?: number },
): Listener {
  const pool = database.pool;
  if (!pool) throw new Error("realtime: a PostgreSQL database without a pool");
  const connection = pool.options;
  const firstDelay = options.reconnectMs ?? 500;
  let delay = firstDelay;
  let client: pg.Client | null = null;
  let stopped = false;
  let everConnected = false;
  let retry: NodeJS.Timeout | null = null;
  let connecting: Promise<void> | null = null;

  const ping = setInterval(() => {
    client?.query("select 1").catch(() => dropped(client));
  }, options.pingMs ?? 30_000);
  ping.unref();

  function dropped(which: pg.Client | null): void {
    if (stopped || which !== client || !which) return;
    client = null;
    which.removeAllListeners();
    which.on("error", () => {});
    which.end().catch(() => {});
    log.warn({ retryInMs: delay }, "realtime: lost the listening connection; reconnecting");
    scheduleReconnect();
  }

  function scheduleReconnect(): void {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = null;
      connect().catch(() => scheduleReconnect());
    }, delay);
    retry.unref();
    delay = Math.min(delay * 2, 30_000);
  }

  function connect(): Promise<void> {
    connecting ??= (async () => {
      const next = new pg.Client({ ...connection, keepAlive: true, application_name: LISTENER_NAME });
      next.on("error", () => dropped(next));
      next.on("end", () => dropped(next));
      next.on("notification", (message) => onMessage(message.channel, message.payload));
      try {
        await next.connect();
        await next.query(CHANNELS.map((channel) => `listen ${channel}`).join("; "));
      } catch (error) {
        next.removeAllListeners();
        next.on("error", () => {});
        await next.end().catch(() => {});
        throw error;
      }
      if (stopped) {
        await next.end().catch(() => {});
        return;
      }
      client = next;
      delay = firstDelay;
      if (everConnected) {
        log.info("realtime: listening again; catching the streams up");
        resync();
      }
      everConnected = true;
    })().finally(() => {
      connecting = null;
    });
    return connecting;
  }

  return {
    async ready() {
      if (client) return;
      await connect();
    },
    async close() {
      stopped = true;
      clearInterval(ping);
      if (retry) clearTimeout(retry);
      await connecting?.catch(() => {});
      const last = client;
      client = null;
      if (last) {
        last.removeAllListeners();
        last.on("error", () => {});
        await last.end().catch(() => {});
      }
    },
  };
}
