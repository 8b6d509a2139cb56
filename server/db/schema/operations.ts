import { sql } from "drizzle-orm";
import { bigint, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import * as columns from "./columns";

/**
 * Decision 0570: a student's request for an archive of their data. A job prepares the ZIP
 * (`file`, under DATA_DIR); the link mailed and notified carries a token whose hash is kept here,
 * works once (`downloaded_at`) and until `expires_at`. The row goes with the account.
 */
export const dataExports = pgTable(
  "data_exports",
  {
    id: columns.id(),
    userId: columns.userRef("user_id"),
    status: text("status", { enum: ["pending", "ready", "failed"] })
      .notNull()
      .default("pending"),
    /** SHA-256 of the link's token, hex; set when the archive is ready. */
    tokenHash: text("token_hash"),
    /** The archive's path relative to DATA_DIR's exports folder. */
    file: text("file"),
    bytes: bigint("bytes", { mode: "number" }),
    attempts: bigint("attempts", { mode: "number" }).notNull().default(0),
    error: text("error"),
    requestedAt: columns.time("requested_at").notNull(),
    readyAt: columns.time("ready_at"),
    expiresAt: columns.time("expires_at"),
    downloadedAt: columns.time("downloaded_at"),
  },
  (table) => [
    index("data_exports_user_idx").on(table.userId, table.requestedAt.desc()),
    index("data_exports_pending_idx").on(table.requestedAt).where(sql`${table.status} = 'pending'`),
    uniqueIndex("data_exports_token_unique").on(table.tokenHash),
  ],
);

/**
 * Decision 0580: each backup `npm run backup` made, written by the process that took the
 * snapshot, so the operator console can show the age of the last one.
 */
export const backups = pgTable(
  "backups",
  {
    id: columns.id(),
    /** The archive's file name as given to the command (no directory). */
    file: text("file").notNull(),
    bytes: bigint("bytes", { mode: "number" }).notNull(),
    createdAt: columns.time("created_at").notNull(),
  },
  (table) => [index("backups_created_idx").on(table.createdAt.desc())],
);
