import path from "node:path";
import { postgresBackupNote } from "./postgres-note";

/** What `npm run backup -- FILE` and `npm run restore -- FILE` act on, both absolute. */
export interface ArchiveCommandLine {
  dataDir: string;
  file: string;
}

/**
 * Decision 0580: the two commands' shared line: exactly one FILE, and the embedded database only
 * (with DATABASE_URL they say to use PostgreSQL's tools). The exit code when refused: 2 for a
 * wrong command line, 1 for DATABASE_URL.
 */
export function readArchiveCommandLine(
  command: "backup" | "restore",
  usage: string,
  args: readonly string[],
  env: Record<string, string | undefined>,
  err: (line: string) => void,
): ArchiveCommandLine | number {
  const file = args[0];
  if (args.length !== 1 || !file || file.startsWith("-")) {
    err(usage);
    return 2;
  }
  if (env.DATABASE_URL?.trim()) {
    err(postgresBackupNote(command));
    return 1;
  }
  // DATA_DIR as the server reads it (from the project folder, where npm runs scripts); FILE from
  // where the operator typed it (INIT_CWD, which npm sets).
  return {
    dataDir: path.resolve(env.DATA_DIR || "./data"),
    file: path.resolve(env.INIT_CWD ?? process.cwd(), file),
  };
}
