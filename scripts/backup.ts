// Decision 0580: `npm run backup -- FILE` writes one archive of the embedded database (a
// consistent snapshot, taken by the running server when there is one) and DATA_DIR's media
// folder and secrets. With DATABASE_URL it says to use pg_dump and does nothing.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { BackupRefusedError } from "../server/backups/archive";
import { makeBackup } from "../server/backups/backup";
import { readArchiveCommandLine } from "../server/backups/command-line";
import { ControlRefusedError } from "../server/backups/control-client";
import { systemClock } from "../server/clock";
import { DatabaseInUseError } from "../server/db/embedded-lock";
import type { CommandOutput } from "./staff";

const console_: CommandOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

export const BACKUP_USAGE = "Usage: npm run backup -- FILE   (FILE: the archive to write, outside DATA_DIR)";

export function appVersion(): string {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "package.json");
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Runs the command; returns the exit code (0 done, 1 refused or failed, 2 a wrong command line). */
export async function main(
  args: readonly string[],
  env: Record<string, string | undefined> = process.env,
  output: CommandOutput = console_,
): Promise<number> {
  const line = readArchiveCommandLine("backup", BACKUP_USAGE, args, env, output.err);
  if (typeof line === "number") return line;
  const { dataDir } = line;
  try {
    const made = await makeBackup({
      dataDir,
      outFile: line.file,
      appVersion: appVersion(),
      clock: systemClock,
      mediaInBucket: Boolean(env.S3_BUCKET?.trim()),
    });
    output.out(
      `Backup written to ${made.file} (${megabytes(made.bytes)}): the database as of ${made.createdAt.toISOString()}` +
        `${made.takenBy === "server" ? ", taken by the running server" : ""}, with DATA_DIR's other files.`,
    );
    if (made.media === "s3") {
      output.out(
        "The media are in the S3 bucket and are not in this archive: back the bucket up with its own tools.",
      );
    }
    for (const skipped of made.skipped) output.out(`Left out (not a file or folder): ${skipped}`);
    return 0;
  } catch (error) {
    if (error instanceof BackupRefusedError || error instanceof DatabaseInUseError) {
      output.err(`No backup made: ${error.message}`);
      return 1;
    }
    if (error instanceof ControlRefusedError) {
      output.err(`No backup made: the running server answered ${error.status}: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
