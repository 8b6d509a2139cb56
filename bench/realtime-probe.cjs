// bench/realtime.ts only: preloaded into each app process (`node --expose-gc -r …`) so the bench
// can read memory fairly. On SIGUSR2 the process collects its garbage (twice: the second pass frees
// what the first one's finalisers released) and writes process.memoryUsage() to
// $BENCH_PROBE_DIR/{pid}.json. Nothing of this is in the app.
const { writeFileSync, renameSync } = require("node:fs");
const path = require("node:path");

const dir = process.env.BENCH_PROBE_DIR;
if (dir && typeof globalThis.gc === "function") {
  process.on("SIGUSR2", () => {
    globalThis.gc();
    globalThis.gc();
    const file = path.join(dir, `${process.pid}.json`);
    writeFileSync(`${file}.tmp`, JSON.stringify({ at: Date.now(), ...process.memoryUsage() }));
    renameSync(`${file}.tmp`, file);
  });
}
