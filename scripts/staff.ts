// Decision 0522: `npm run staff -- grant admin EMAIL | grant moderator EMAIL CAMPUS_ID |
// revoke … | list` for operators who cannot restart the server with a new ADMIN_EMAILS. It works
// on DATABASE_URL, or on the embedded database in DATA_DIR while the server is stopped (the
// embedded database takes one process at a time: server/db/embedded-lock.ts).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { systemClock } from "../server/clock";
import { parseAdminEmails } from "../server/config";
import { openDatabase } from "../server/db/client";
import { DatabaseInUseError } from "../server/db/embedded-lock";
import { migrateDatabase } from "../server/db/migrate";
import { isDomainError } from "../server/errors.shared";
import { runStaffCommand, StaffUsageError } from "../server/staff/command";

export interface CommandOutput {
  out(line: string): void;
  err(line: string): void;
}

const console_: CommandOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** Runs the command; returns the exit code (0 done, 1 refused or failed, 2 a wrong command line). */
export async function main(
  args: readonly string[],
  env: Record<string, string | undefined> = process.env,
  output: CommandOutput = console_,
): Promise<number> {
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  const dataDir = path.resolve(env.DATA_DIR || "./data");
  let adminEmails: string[];
  try {
    adminEmails = parseAdminEmails(env.ADMIN_EMAILS);
  } catch (error) {
    output.err((error as Error).message);
    return 1;
  }
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase({ databaseUrl, dataDir });
  } catch (error) {
    if (error instanceof DatabaseInUseError) {
      output.err(error.message);
      return 1;
    }
    throw error;
  }
  try {
    // As the server does at start, so the command works on a database an older version made.
    await migrateDatabase(database);
    output.out(await runStaffCommand({ db: database.db, clock: systemClock }, args, adminEmails));
    return 0;
  } catch (error) {
    if (error instanceof StaffUsageError) {
      output.err(error.message);
      return 2;
    }
    if (isDomainError(error)) {
      output.err(`${error.message} Nothing changed.`);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
