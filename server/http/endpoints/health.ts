import type { Express } from "express";
import type { DatabaseHandle } from "../../db/client";
import { BACK_SOON_HEADERS } from "../../errors.shared";

/**
 * `GET /healthz` answers from the last database check when it is recent (decision 0107,
 * decision 0107). Asking the database on every call put the check in the same queue as
 * every page's queries (PGlite runs one query at a time), so under load a balancer saw
 * the process as dead exactly when it was only busy. Now a call older than `refreshMs`
 * starts a new check in the background and answers at once from the last one; only a
 * result older than `staleMs` (or none yet) is waited for, so a database that stopped
 * answering is reported within `staleMs`.
 */
export interface HealthCheckOptions {
  probe(): Promise<void>;
  now?: () => number;
  refreshMs?: number;
  staleMs?: number;
  /** A probe that takes longer than this counts as failed. */
  timeoutMs?: number;
}

export function createHealthCheck(options: HealthCheckOptions): () => Promise<boolean> {
  // Ages in elapsed time, not the time of day (decision 0481).
  const now = options.now ?? (() => performance.now());
  const refreshMs = options.refreshMs ?? 1_000;
  const staleMs = options.staleMs ?? 5_000;
  const timeoutMs = options.timeoutMs ?? 3_000;
  let last: { healthy: boolean; at: number } | null = null;
  let running: Promise<boolean> | null = null;

  const check = () => {
    running ??= (async () => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("health probe timed out")), timeoutMs);
      });
      let healthy = false;
      try {
        await Promise.race([options.probe(), timeout]);
        healthy = true;
      } catch {
        healthy = false;
      } finally {
        clearTimeout(timer);
      }
      last = { healthy, at: now() };
      running = null;
      return healthy;
    })();
    return running;
  };

  return async () => {
    const age = last ? now() - last.at : Number.POSITIVE_INFINITY;
    if (last && age < refreshMs) return last.healthy;
    if (last && age < staleMs) {
      void check();
      return last.healthy;
    }
    return check();
  };
}

/**
 * `GET /healthz` on `app`: 200 with the database's kind while it answers, else 503 with
 * Retry-After, so a balancer or client is told when to look again (decision 0470).
 */
export function mountHealthCheck(app: Express, database: DatabaseHandle): void {
  const databaseHealthy = createHealthCheck({
    probe: async () => {
      await database.db.execute("select 1");
    },
  });
  app.get("/healthz", async (_req, res) => {
    if (await databaseHealthy()) res.json({ status: "ok", database: database.kind });
    else res.status(503).set(BACK_SOON_HEADERS).json({ status: "unavailable" });
  });
}
