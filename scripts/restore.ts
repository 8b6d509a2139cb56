import { pathToFileURL } from "node:url";
import { BackupRefusedError } from "../server/backups/archive";
import { readArchiveCommandLine } from "../server/backups/command-line";
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
  const line = readArchiveCommandLine("restore", RESTORE_USAGE, args, env, output.err);
  if (typeof line === "number") return line;
  const { dataDir } = line;
  try {
    const manifest = await restoreBackup({
      file: line.file,
      dataDir,
      migrationsFolder,
    });
    output.out(
      `Restored ${args[0]} (the database as of ${manifest.createdAt}, app version ${manifest.appVersion}) into ${dataDir}. ` +
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
