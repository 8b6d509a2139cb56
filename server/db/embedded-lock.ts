import { readFileSync, unlinkSync, writeFileSync } from "node:fs";

/**
 * Decision 0522: the embedded database (PGlite in DATA_DIR) may be opened by one process at a time
 * (docs/architecture.md pitfall 4), and PGlite itself does not check: a second process would open it
 * beside the first and the two would overwrite each other's files. So whoever opens it (the
 * server, `npm run staff`) first creates a lock file holding its process id, and removes it when
 * it closes the database. A lock whose process is gone (a crash, a killed server) is taken over.
 */
export class DatabaseInUseError extends Error {
  constructor(
    readonly pid: number,
    readonly lockFile: string,
  ) {
    super(
      `The embedded database is in use by process ${pid} (a running server?). Stop it first, or ` +
        `use DATABASE_URL. If no such process runs, delete ${lockFile}.`,
    );
    this.name = "DatabaseInUseError";
  }
}

/** The lock files this process holds: its own id in a lock file means 'in use' only if listed here. */
const held = new Set<string>();

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function holderOf(lockFile: string): number | null {
  try {
    const pid = Number(readFileSync(lockFile, "utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Takes the lock or throws DatabaseInUseError; returns its release. */
export function lockEmbeddedDatabase(lockFile: string): () => void {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(lockFile, `${process.pid}\n`, { flag: "wx" });
      held.add(lockFile);
      return () => {
        if (!held.delete(lockFile)) return;
        if (holderOf(lockFile) === process.pid) unlinkSync(lockFile);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = holderOf(lockFile);
      // A restarted container runs the server under the same small process id as the one that died.
      const alive = holder !== null && (holder === process.pid ? held.has(lockFile) : isRunning(holder));
      if (alive) throw new DatabaseInUseError(holder, lockFile);
      try {
        unlinkSync(lockFile);
      } catch {
        // Another process took it over first; the next attempt sees its lock.
      }
    }
  }
  throw new DatabaseInUseError(holderOf(lockFile) ?? 0, lockFile);
}
