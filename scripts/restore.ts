// Decision 0580: `npm run restore -- FILE` puts a backup made by `npm run backup` into an empty
// DATA_DIR, checked whole before anything is written. With DATABASE_URL it says to use
// pg_restore and does nothing.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { BackupRefusedError } from "../server/backups/archive";
import { postgresBackupNote } from "../server/backups/postgres-note";
import { restoreBackup } from "../server/backups/restore";
import { DatabaseInUseError } from "../server/db/embedded-lock";
import { migrationsFolder } from "../server/db/migrate";
import type { CommandOutput } from "./staff";

const console_: CommandOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

export const RESTORE_USAGE = "Usage: npm run restore -- FILE   (into an empty DATA_DIR)";

/** Runs the command; returns the exit code (0 done, 1 refused or failed, 2 a wrong command line). */
export async function main(
  args: readonly string[],
  env: Record<string, string | undefined> = process.env,
  output: CommandOutput = console_,
): Promise<number> {
  const file = args[0];
  if (args.length !== 1 || !file || file.startsWith("-")) {
    output.err(RESTORE_USAGE);
    return 2;
  }
  if (env.DATABASE_URL?.trim()) {
    output.err(postgresBackupNote("restore"));
    return 1;
  }
  // DATA_DIR as the server reads it (from the project folder, where npm runs scripts); FILE from
  // where the operator typed it (INIT_CWD, which npm sets).
  const dataDir = path.resolve(env.DATA_DIR || "./data");
  try {
    const manifest = await restoreBackup({
      file: path.resolve(env.INIT_CWD ?? process.cwd(), file),
      dataDir,
      migrationsFolder,
    });
    output.out(
      `Restored ${file} (the database as of ${manifest.createdAt}, app version ${manifest.appVersion}) into ${dataDir}. ` +
        "Start the server as usual: it applies any newer migrations.",
    );
    if (manifest.media === "s3") {
      output.out("The backup's media were in an S3 bucket and are not in it: the bucket must hold them.");
    }
    return 0;
  } catch (error) {
    if (error instanceof BackupRefusedError || error instanceof DatabaseInUseError) {
      output.err(`Nothing restored: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
