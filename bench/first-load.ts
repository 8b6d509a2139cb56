// First load on a phone (issue 16 §2): Lighthouse's mobile run (default throttling: a slow 4G
// network and a 4× slower CPU, simulated) of /home for a visitor and for a signed-in student,
// against the built app, with the first-load JavaScript that scripts/js-budget.ts counts.
// Not a test: `npx tsx bench/first-load.ts` after a build. Lighthouse is not a dependency of the
// project; install it apart (version 13 needs Node 22):
//
//   npm i --prefix /tmp/lh lighthouse@12.8.2
//   npx react-router build
//   npx tsx bench/first-load.ts
//
// Knobs: BENCH_PORT (4283), BENCH_RUNS (3: the median run of each page is reported),
// LIGHTHOUSE_BIN (/tmp/lh/node_modules/.bin/lighthouse), CHROME_PATH (/usr/bin/chromium).
// The data: a fresh PGlite data dir with OU open to visitors (PUBLIC_CAMPUSES, decision 0135),
// one student who can sign in and BENCH_POSTS (30) text posts of theirs.
import { execFile } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { hashPassword } from "better-auth/crypto";
import { seedCampuses } from "~/server/campuses/campuses";
import { openDatabase } from "~/server/db/client";
import { migrateDatabase } from "~/server/db/migrate";
import { account, posts, user } from "~/server/db/schema";
import { plainTextToRichText, richTextToPlainText } from "~/server/posts/rich-text";
import { startAppProcess } from "../scripts/app-process";
import { FIRST_LOAD_TARGET_KIB, firstLoadFiles, readManifest } from "../scripts/js-budget";
import { builtAppEnv, signInThroughLogin } from "./app";

const PORT = Number(process.env.BENCH_PORT ?? 4283);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const POSTS = Number(process.env.BENCH_POSTS ?? 30);
const LIGHTHOUSE = process.env.LIGHTHOUSE_BIN ?? "/tmp/lh/node_modules/.bin/lighthouse";
const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const BASE = `http://localhost:${PORT}`;
const CAMPUS = "ou";
const STUDENT = { id: "first-load-student", email: "firstload@ou.edu", password: "first-load-pass-1" };
const PHRASES = [
  "Selling my calculus textbook, barely used, a few notes in pencil.",
  "Mini fridge for sale, works great, pick up near the library.",
  "Anyone want a desk lamp? Free to a good home this weekend.",
  "Looking for a roommate for spring semester, two blocks from campus.",
  "Bike for sale: 21 speeds, new tyres, lock included.",
];

async function plant(dataDir: string): Promise<void> {
  const database = await openDatabase({ dataDir, databaseUrl: null });
  try {
    await migrateDatabase(database);
    await seedCampuses(database.db, []);
    const now = new Date();
    await database.db.insert(user).values({
      id: STUDENT.id,
      name: "Fiona Load",
      email: STUDENT.email,
      verified: true,
      firstName: "Fiona",
      lastName: "Load",
      username: "fionaload",
      campusId: CAMPUS,
      schoolEmail: STUDENT.email,
      schoolVerified: true,
      profileSetUp: true,
      bio: "Student selling things on campus.",
      createdAt: now,
      updatedAt: now,
    });
    await database.db.insert(account).values({
      id: "first-load-account",
      accountId: STUDENT.id,
      providerId: "credential",
      userId: STUDENT.id,
      password: await hashPassword(STUDENT.password),
      createdAt: now,
      updatedAt: now,
    });
    await database.db.insert(posts).values(
      Array.from({ length: POSTS }, (_, i) => {
        const text = plainTextToRichText(PHRASES[i % PHRASES.length] ?? "For sale.");
        return {
          campusId: CAMPUS,
          type: "post" as const,
          authorId: STUDENT.id,
          text,
          textPlain: richTextToPlainText(text),
          createdAt: new Date(now.getTime() - i * 60_000),
          lastModified: new Date(now.getTime() - i * 60_000),
        };
      }),
    );
  } finally {
    await database.close();
  }
}

/** The student's session cookie, for the signed-in page. */
function signIn(): Promise<string> {
  return signInThroughLogin(BASE, STUDENT.email, STUDENT.password);
}

interface LighthouseRun {
  performance: number;
  accessibility: number;
  lcpMs: number;
  fcpMs: number;
  cls: number;
  tbtMs: number;
  /** Script bytes over the wire (gzip), KiB, everything the run fetched. */
  scriptKib: number;
  /** Accessibility audits that failed, by id. */
  failing: string[];
}

interface LighthouseReport {
  categories: Record<string, { score: number | null; auditRefs: { id: string }[] }>;
  audits: Record<
    string,
    {
      score: number | null;
      scoreDisplayMode?: string;
      numericValue?: number;
      details?: { items?: { resourceType?: string; transferSize?: number }[] };
    }
  >;
}

async function lighthouse(url: string, cookie: string | null, out: string): Promise<LighthouseRun> {
  const args = [
    url,
    "--form-factor=mobile",
    "--only-categories=performance,accessibility",
    "--output=json",
    `--output-path=${out}`,
    "--quiet",
    "--chrome-flags=--headless=new --no-sandbox",
  ];
  if (cookie) args.push(`--extra-headers=${JSON.stringify({ Cookie: cookie })}`);
  await promisify(execFile)(LIGHTHOUSE, args, {
    env: { ...process.env, CHROME_PATH: CHROME },
    maxBuffer: 64 * 1024 * 1024,
  });
  const report = JSON.parse(readFileSync(out, "utf8")) as LighthouseReport;
  const audit = (id: string) => report.audits[id]?.numericValue ?? Number.NaN;
  const scripts = report.audits["network-requests"]?.details?.items ?? [];
  const a11yIds = report.categories.accessibility?.auditRefs.map((ref) => ref.id) ?? [];
  return {
    performance: Math.round((report.categories.performance?.score ?? 0) * 100),
    accessibility: Math.round((report.categories.accessibility?.score ?? 0) * 100),
    lcpMs: audit("largest-contentful-paint"),
    fcpMs: audit("first-contentful-paint"),
    cls: audit("cumulative-layout-shift"),
    tbtMs: audit("total-blocking-time"),
    scriptKib:
      scripts
        .filter((item) => item.resourceType === "Script")
        .reduce((sum, item) => sum + (item.transferSize ?? 0), 0) / 1024,
    failing: a11yIds.filter((id) => {
      const result = report.audits[id];
      return result?.score === 0 && result.scoreDisplayMode === "binary";
    }),
  };
}

function median(runs: LighthouseRun[]): LighthouseRun {
  const sorted = [...runs].sort((a, b) => a.performance - b.performance);
  return sorted[Math.floor((sorted.length - 1) / 2)] as LighthouseRun;
}

function firstLoadKib(): number {
  const clientDir = path.resolve("build/client");
  const files = firstLoadFiles(readManifest(clientDir), "routes/feed/home");
  const bytes = files.reduce(
    (sum, file) => sum + gzipSync(readFileSync(path.join(clientDir, file)), { level: 9 }).length,
    0,
  );
  return bytes / 1024;
}

async function main() {
  if (!existsSync("build/server/index.js")) throw new Error("No build: run `npx react-router build` first.");
  if (!existsSync(LIGHTHOUSE))
    throw new Error(`No Lighthouse at ${LIGHTHOUSE}: npm i --prefix /tmp/lh lighthouse@12.8.2`);
  const dataDir = path.join(os.tmpdir(), "cbs-first-load");
  rmSync(dataDir, { recursive: true, force: true });
  await plant(dataDir);
  const app = await startAppProcess({
    env: {
      ...builtAppEnv(PORT),
      LOG_LEVEL: "warn",
      PUBLIC_CAMPUSES: CAMPUS,
      DATA_DIR: dataDir,
    },
    port: PORT,
    output: path.join(os.tmpdir(), "cbs-first-load.log"),
    startTimeoutMs: 120_000,
  });
  const loadBefore = os.loadavg();
  const results: Record<string, LighthouseRun[]> = { visitor: [], "signed in": [] };
  try {
    const cookie = await signIn();
    const outDir = path.join(os.tmpdir(), "cbs-first-load-reports");
    await mkdir(outDir, { recursive: true });
    // Alternating, so a change of the machine's load falls on both pages alike.
    for (let run = 0; run < RUNS; run++) {
      results.visitor?.push(await lighthouse(`${BASE}/home`, null, path.join(outDir, `visitor-${run}.json`)));
      results["signed in"]?.push(
        await lighthouse(`${BASE}/home`, cookie, path.join(outDir, `signed-in-${run}.json`)),
      );
    }
  } finally {
    await app.stop();
  }
  const loadAfter = os.loadavg();
  const lines = [
    `First-load JavaScript of /home (scripts/js-budget.ts): ${firstLoadKib().toFixed(1)} KiB gzipped (target ${FIRST_LOAD_TARGET_KIB} KiB)`,
    `Load average (1, 5, 15 min): before ${loadBefore.map((n) => n.toFixed(2)).join(", ")}; after ${loadAfter.map((n) => n.toFixed(2)).join(", ")} (${os.cpus().length} cores)`,
    `Lighthouse 12.8.2, mobile, default (simulated) throttling; the median of ${RUNS} runs by performance score:`,
    "",
    "| /home | performance | LCP | FCP | TBT | CLS | accessibility | scripts fetched (gzip) | failing accessibility audits |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const [who, runs] of Object.entries(results)) {
    const m = median(runs);
    lines.push(
      `| ${who} | ${m.performance} (runs: ${runs.map((r) => r.performance).join(", ")}) | ${(m.lcpMs / 1000).toFixed(2)} s | ${(m.fcpMs / 1000).toFixed(2)} s | ${Math.round(m.tbtMs)} ms | ${m.cls.toFixed(3)} | ${m.accessibility} | ${m.scriptKib.toFixed(1)} KiB | ${m.failing.join(", ") || "none"} |`,
    );
  }
  const report = lines.join("\n");
  console.log(report);
  await writeFile(path.join("bench", "results", "first-load.md"), `${report}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
