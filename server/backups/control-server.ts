import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { z } from "zod";
import type { Clock } from "../clock";
import type { DatabaseHandle } from "../db/client";
import type { Logger } from "../logger";
import { recordBackup } from "./record";
import { isSnapshotId, removeSnapshot, sweepSnapshots, takeSnapshot } from "./snapshot";

/**
 * Decision 0580: how `npm run backup` asks the running server for a snapshot of the embedded
 * database, which only the server may open (decision 0522). Not part of the app's HTTP server:
 *
 * - its own listener on 127.0.0.1 and a port the system picks, so no other host reaches it and no
 *   reverse proxy forwards to it (a proxy forwards to PORT);
 * - every request carries a 256-bit secret, new at every start, that the server writes to
 *   DATA_DIR/backup-control.json readable by its owner only (0600): whoever can read it can read
 *   the database files themselves;
 * - browsers are refused twice: a request carrying Origin or Sec-Fetch-* is answered 403, and the
 *   secret travels in the Authorization header, which no page can send to another origin without
 *   a CORS preflight this listener never approves; the Host header must name 127.0.0.1 and the
 *   port (a DNS-rebinding page would still lack the secret). Nothing is decided by Host alone;
 * - what it does is narrow: take a snapshot into DATA_DIR/tmp/backups/{random id}, record a
 *   finished backup, discard a snapshot. No data ever travels over it.
 */
export const CONTROL_FILE = "backup-control.json";

/** What the server writes to DATA_DIR/backup-control.json and the command reads. */
export const controlFileSchema = z
  .object({ pid: z.number().int().positive(), port: z.number().int().min(1).max(65_535), secret: z.string() })
  .strict();
export type ControlFile = z.infer<typeof controlFileSchema>;

/** The answer to POST /snapshot. */
export const snapshotAnswerSchema = z.object({
  id: z.string(),
  createdAt: z.iso.datetime(),
  migrations: z.object({ applied: z.number().int(), latest: z.number().int() }),
  skipped: z.array(z.string()),
  media: z.enum(["local", "s3"]),
});
export type SnapshotAnswer = z.infer<typeof snapshotAnswerSchema>;

const recordSchema = z
  .object({
    id: z.string().max(64),
    file: z
      .string()
      .min(1)
      .max(255)
      .regex(/^[^/\\\0]+$/),
    bytes: z.number().int().min(0),
  })
  .strict();
const discardSchema = z.object({ id: z.string().max(64) }).strict();

/** A snapshot left open longer than this (its command died) is discarded by the next one. */
const OPEN_SNAPSHOT_MS = 60 * 60 * 1000;
const BODY_LIMIT = 4096;

function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}

export interface BackupControl {
  readonly port: number;
  close(): Promise<void>;
}

export async function startBackupControl(deps: {
  database: DatabaseHandle;
  dataDir: string;
  clock: Clock;
  log: Logger;
  mediaInBucket: boolean;
}): Promise<BackupControl> {
  const embedded = deps.database.pglite;
  if (!embedded) throw new Error("the backup control serves the embedded database only");
  const pglite = embedded;
  const secret = randomBytes(32).toString("hex");
  const expected = digest(`Bearer ${secret}`);
  /** Snapshots taken and not yet recorded or discarded, with when. */
  const open = new Map<string, number>();
  let taking = false;

  const answer = (res: ServerResponse, status: number, body: object) => {
    res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
    res.end(JSON.stringify(body));
  };

  async function readJson(req: IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    let length = 0;
    for await (const chunk of req) {
      length += (chunk as Buffer).length;
      if (length > BODY_LIMIT) throw new RangeError("body too large");
      chunks.push(chunk as Buffer);
    }
    return JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
  }

  async function handle(req: IncomingMessage, res: ServerResponse, port: number): Promise<void> {
    // Refused before the body is read: anything a browser sends, a wrong host, a wrong secret.
    const fromBrowser =
      req.headers.origin !== undefined ||
      req.headers["sec-fetch-site"] !== undefined ||
      req.headers["sec-fetch-mode"] !== undefined;
    const presented = digest(String(req.headers.authorization ?? ""));
    if (fromBrowser || req.headers.host !== `127.0.0.1:${port}` || !timingSafeEqual(presented, expected)) {
      return answer(res, 403, { message: "Forbidden" });
    }
    if (req.method !== "POST" || req.headers["content-type"] !== "application/json") {
      return answer(res, 405, { message: "POST application/json only" });
    }
    const body = await readJson(req);
    const now = deps.clock.now().getTime();
    if (req.url === "/snapshot") {
      for (const [id, at] of open) {
        if (now - at > OPEN_SNAPSHOT_MS) {
          open.delete(id);
          await removeSnapshot(deps.dataDir, id);
        }
      }
      if (taking || open.size > 0) return answer(res, 409, { message: "Another backup is being made." });
      taking = true;
      try {
        await sweepSnapshots(deps.dataDir, new Set());
        const snapshot = await takeSnapshot({ pglite, dataDir: deps.dataDir, clock: deps.clock });
        open.set(snapshot.id, now);
        deps.log.info({ snapshot: snapshot.id }, "backup: snapshot taken");
        const reply: SnapshotAnswer = {
          id: snapshot.id,
          createdAt: snapshot.createdAt.toISOString(),
          migrations: snapshot.migrations,
          skipped: snapshot.skipped,
          media: deps.mediaInBucket ? "s3" : "local",
        };
        return answer(res, 200, reply);
      } finally {
        taking = false;
      }
    }
    if (req.url === "/record") {
      const input = recordSchema.safeParse(body);
      if (!input.success || !open.has(input.data.id))
        return answer(res, 404, { message: "No such snapshot." });
      open.delete(input.data.id);
      await recordBackup(deps.database.db, deps.clock, input.data);
      await removeSnapshot(deps.dataDir, input.data.id);
      deps.log.info({ file: input.data.file, bytes: input.data.bytes }, "backup: made");
      return answer(res, 200, { ok: true });
    }
    if (req.url === "/discard") {
      const input = discardSchema.safeParse(body);
      if (!input.success || !isSnapshotId(input.data.id) || !open.delete(input.data.id)) {
        return answer(res, 404, { message: "No such snapshot." });
      }
      await removeSnapshot(deps.dataDir, input.data.id);
      return answer(res, 200, { ok: true });
    }
    return answer(res, 404, { message: "Not Found" });
  }

  const server = createServer((req, res) => {
    handle(req, res, (server.address() as AddressInfo).port).catch((error: unknown) => {
      deps.log.error({ err: error }, "backup: a control request failed");
      if (!res.headersSent) answer(res, 500, { message: (error as Error).message });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const file = path.join(deps.dataDir, CONTROL_FILE);
  const contents: ControlFile = { pid: process.pid, port, secret };
  const partial = `${file}.${randomBytes(6).toString("hex")}.partial`;
  await writeFile(partial, JSON.stringify(contents), { flag: "wx", mode: 0o600 });
  await rename(partial, file);

  return {
    port,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await closed;
      // Only our own: a server started since (after a crash of this one) wrote its own.
      const stored = await readFile(file, "utf8").catch(() => "");
      if (stored.includes(secret)) await rm(file, { force: true });
      for (const id of open.keys()) await removeSnapshot(deps.dataDir, id);
    },
  };
}
