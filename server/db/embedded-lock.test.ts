import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DatabaseInUseError, lockEmbeddedDatabase } from "./embedded-lock";

// Decision 0522: DATA_DIR/db.lock keeps a second process off the embedded database.
let dir: string;
let lockFile: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "cbs-lock-"));
  lockFile = path.join(dir, "db.lock");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the embedded database's lock", () => {
  it("holds this process's id until released, and refuses a second opener meanwhile", () => {
    const release = lockEmbeddedDatabase(lockFile);
    expect(readFileSync(lockFile, "utf8").trim()).toBe(String(process.pid));
    expect(() => lockEmbeddedDatabase(lockFile)).toThrow(DatabaseInUseError);
    release();
    expect(existsSync(lockFile)).toBe(false);
    lockEmbeddedDatabase(lockFile)();
  });

  it("refuses while another live process holds it", () => {
    // The parent process (the test runner) is alive and is not this one.
    writeFileSync(lockFile, `${process.ppid}\n`);
    expect(() => lockEmbeddedDatabase(lockFile)).toThrow(`in use by process ${process.ppid}`);
    expect(readFileSync(lockFile, "utf8").trim()).toBe(String(process.ppid));
  });

  it("takes over a lock whose process is gone, or one with this id it never took (a restarted container)", () => {
    for (const stale of ["2147483646", String(process.pid), "not a pid"]) {
      writeFileSync(lockFile, `${stale}\n`);
      const release = lockEmbeddedDatabase(lockFile);
      expect(readFileSync(lockFile, "utf8").trim()).toBe(String(process.pid));
      release();
    }
  });
});
