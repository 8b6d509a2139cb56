import { createHash, randomBytes } from "node:crypto";
import { and, asc, desc, eq, gt, isNotNull, isNull, lt, lte, or } from "drizzle-orm";
import { createElement } from "react";
import type { Viewer } from "../accounts/viewer";
import { campusOrigin } from "../campuses/campuses";
import { campusBrand } from "../campuses/names.shared";
import type { AppContext } from "../context";
import { formatUtcDateTime } from "../dates.shared";
import { dataExports, user } from "../db/schema";
import { enqueueMail } from "../mail/outbox";
import { renderMail } from "../mail/render";
import { notifyOwnAccount } from "../notifications/notify";
import { writeArchive } from "./export-archive";
import { ensureExportsDir, exportPath, removeExportFiles } from "./export-files";
import { DataExportReadyEmail } from "./mails";
import { PRIVACY_MESSAGES, PrivacyError } from "./messages.shared";
import { exportTokenSchema } from "./schemas.shared";

/**
 * Decision 0570: Download my data. A request is a pending row; the prepare-data-exports job
 * writes the archive and mails a link whose token only the mail holds (the row keeps its
 * SHA-256). The link works once, for 7 days by the clock, only for the signed-in owner.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
export const EXPORT_LINK_DAYS = 7;
/** One request a day (a failed one does not count). */
export const EXPORT_REQUEST_INTERVAL_MS = DAY_MS;
/** Tries of one archive before it is marked failed. */
const MAX_ATTEMPTS = 3;
export const DATA_EXPORT_MAIL_KIND = "data-export-ready";
export const DATA_EXPORT_PATH = "/settings/account/data/download";

export interface DataExportState {
  status: "none" | "pending" | "ready" | "downloaded" | "expired" | "failed";
  requestedAt: Date | null;
  expiresAt: Date | null;
  /** When the next request is allowed; null when it is now. */
  nextRequestAt: Date | null;
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** What the data page shows: the latest request, read with the clock (decision 0480). */
export async function getDataExportState(ctx: AppContext, viewer: Viewer): Promise<DataExportState> {
  const now = ctx.clock.now();
  const [latest] = await ctx.db
    .select()
    .from(dataExports)
    .where(eq(dataExports.userId, viewer.id))
    .orderBy(desc(dataExports.requestedAt))
    .limit(1);
  if (!latest) return { status: "none", requestedAt: null, expiresAt: null, nextRequestAt: null };
  const next = new Date(latest.requestedAt.getTime() + EXPORT_REQUEST_INTERVAL_MS);
  const nextRequestAt = latest.status === "failed" || next <= now ? null : next;
  let status: DataExportState["status"] = latest.status;
  if (latest.status === "ready") {
    if (latest.downloadedAt) status = "downloaded";
    else if (latest.expiresAt && latest.expiresAt <= now) status = "expired";
  }
  return { status, requestedAt: latest.requestedAt, expiresAt: latest.expiresAt, nextRequestAt };
}

/** Asks for an archive: one pending at a time, one a day. */
export async function requestDataExport(ctx: AppContext, viewer: Viewer): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    // Two requests at once: the second waits here and sees the first's row.
    await tx.select({ id: user.id }).from(user).where(eq(user.id, viewer.id)).for("update");
    const [latest] = await tx
      .select({ status: dataExports.status, requestedAt: dataExports.requestedAt })
      .from(dataExports)
      .where(eq(dataExports.userId, viewer.id))
      .orderBy(desc(dataExports.requestedAt))
      .limit(1);
    if (latest?.status === "pending")
      throw new PrivacyError("export-pending", PRIVACY_MESSAGES.exportPending);
    if (
      latest &&
      latest.status !== "failed" &&
      latest.requestedAt.getTime() + EXPORT_REQUEST_INTERVAL_MS > now.getTime()
    ) {
      throw new PrivacyError("rate-limited", PRIVACY_MESSAGES.exportTooSoon);
    }
    await tx.insert(dataExports).values({ userId: viewer.id, requestedAt: now });
  });
}

async function mailLink(ctx: AppContext, userId: string, token: string, expiresAt: Date) {
  const [owner] = await ctx.db
    .select({ email: user.email, campusId: user.campusId })
    .from(user)
    .where(and(eq(user.id, userId), isNull(user.deletedAt)))
    .limit(1);
  if (!owner) return null;
  const campus = ctx.campuses.get(owner.campusId);
  const downloadUrl = `${campusOrigin(owner.campusId, null, ctx.config)}${DATA_EXPORT_PATH}?token=${token}`;
  const { html, text } = await renderMail(
    createElement(DataExportReadyEmail, {
      campusName: campus ? campusBrand(campus) : "Campus Buy Sell",
      downloadUrl,
      expires: formatUtcDateTime(expiresAt),
    }),
  );
  return {
    campusId: owner.campusId,
    kind: DATA_EXPORT_MAIL_KIND,
    to: owner.email,
    subject: "Your data is ready to download",
    html,
    text,
    expiresAt,
  };
}

/** One pending archive: written, then its row made ready and its mail queued in one transaction. */
async function prepareOne(ctx: AppContext, row: typeof dataExports.$inferSelect): Promise<void> {
  await ctx.db
    .update(dataExports)
    .set({ attempts: row.attempts + 1 })
    .where(eq(dataExports.id, row.id));
  const file = `${row.id}.zip`;
  const target = exportPath(ctx, file);
  if (!target) throw new Error(`data export ${row.id}: no path`);
  await ensureExportsDir(ctx);
  try {
    const bytes = await writeArchive(ctx, row.userId, target);
    const now = ctx.clock.now();
    const token = randomBytes(32).toString("base64url");
    const expiresAt = new Date(now.getTime() + EXPORT_LINK_DAYS * DAY_MS);
    const mail = await mailLink(ctx, row.userId, token, expiresAt);
    await ctx.db.transaction(async (tx) => {
      await tx
        .update(dataExports)
        .set({
          status: "ready",
          tokenHash: hashToken(token),
          file,
          bytes,
          readyAt: now,
          expiresAt,
          error: null,
        })
        .where(and(eq(dataExports.id, row.id), eq(dataExports.status, "pending")));
      if (mail) {
        await enqueueMail(tx, mail, now);
        await notifyOwnAccount(tx, ctx, { to: row.userId, campusId: mail.campusId, type: "data export" });
      }
    });
    ctx.wakeMailWorker();
  } catch (error) {
    const failed = row.attempts + 1 >= MAX_ATTEMPTS;
    ctx.log.error({ err: error, exportId: row.id }, "a data archive could not be written");
    await ctx.db
      .update(dataExports)
      .set({ status: failed ? "failed" : "pending", error: String(error).slice(0, 500) })
      .where(eq(dataExports.id, row.id));
  }
}

/**
 * The prepare-data-exports job (decision 0570): the oldest pending archive (one per round; a full
 * round says there is more), then the files of links used or expired are deleted.
 */
export async function runDataExportsRound(ctx: AppContext): Promise<{ more: boolean }> {
  const now = ctx.clock.now();
  const [next] = await ctx.db
    .select()
    .from(dataExports)
    .where(and(eq(dataExports.status, "pending"), lt(dataExports.attempts, MAX_ATTEMPTS)))
    .orderBy(asc(dataExports.requestedAt))
    .limit(2);
  if (next) await prepareOne(ctx, next);
  const spent = await ctx.db
    .update(dataExports)
    .set({ file: null })
    .where(
      and(
        isNotNull(dataExports.file),
        eq(dataExports.status, "ready"),
        or(isNotNull(dataExports.downloadedAt), lte(dataExports.expiresAt, now)),
      ),
    )
    .returning({ file: dataExports.file, id: dataExports.id });
  // `returning` gives the new value (null): the name is the row's id (prepareOne names it so).
  await removeExportFiles(
    ctx,
    spent.map((row) => `${row.id}.zip`),
  );
  const [more] = await ctx.db
    .select({ id: dataExports.id })
    .from(dataExports)
    .where(and(eq(dataExports.status, "pending"), lt(dataExports.attempts, MAX_ATTEMPTS)))
    .limit(1);
  return { more: next !== undefined && more !== undefined };
}

/**
 * The archive a link opens, once (decision 0570): the token's hash, the signed-in owner, ready,
 * not used, not expired by the clock. Anything else is the ordinary 404, whoever asks.
 */
export async function openDataExport(
  ctx: AppContext,
  viewer: Viewer,
  token: string,
): Promise<{ path: string; bytes: number; fileName: string }> {
  const gone = () => new PrivacyError("not-found", PRIVACY_MESSAGES.linkGone);
  if (!exportTokenSchema.safeParse(token).success) throw gone();
  const now = ctx.clock.now();
  const [used] = await ctx.db
    .update(dataExports)
    .set({ downloadedAt: now })
    .where(
      and(
        eq(dataExports.tokenHash, hashToken(token)),
        eq(dataExports.userId, viewer.id),
        eq(dataExports.status, "ready"),
        isNull(dataExports.downloadedAt),
        gt(dataExports.expiresAt, now),
        isNotNull(dataExports.file),
      ),
    )
    .returning({ file: dataExports.file, bytes: dataExports.bytes, readyAt: dataExports.readyAt });
  const path = used?.file ? exportPath(ctx, used.file) : null;
  if (!used || !path) throw gone();
  const day = (used.readyAt ?? now).toISOString().slice(0, 10);
  return { path, bytes: used.bytes ?? 0, fileName: `campus-buy-sell-data-${day}.zip` };
}
