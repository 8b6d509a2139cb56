// First load on a phone (decision 0340): Lighthouse's mobile run (default throttling: a slow 4G
// network and a 4× slower CPU, simulated) of /home for a visitor and for a signed-in student,
// against the built app, with the first-load JavaScript that scripts/js-budget.ts counts.
// Not a test: `npx tsx bench/first-load.ts` after a build. Lighthouse is not a dependency of the
// project; install it apart (version 13 needs Node 22):
//
//   npm i --prefix /tmp/lh lighthouse@12.8.2
//   npx react-router build
//   npx tsx bench/first-load.ts
//
// Knobs: BENCH_PORT (4283; the browser's DevTools port is BENCH_PORT + 1), BENCH_RUNS (3: the
// median run of each page is reported), LIGHTHOUSE_BIN (/tmp/lh/node_modules/.bin/lighthouse),
// CHROME_PATH (/usr/bin/chromium).
//
// Each run gets a browser of its own, started here with a fresh profile (a cold cache, as a first
// visit), and Lighthouse drives it through its DevTools port. For the signed-in page the student's
// session cookie is put into that browser first, so the page's own requests after hydration
// (`/home.data`, the live stream `/events`) are signed in too, as on a phone; Lighthouse keeps it
// (`--disable-storage-reset`). A run counts as signed in only if its `/events` request was
// answered 200 (a visitor has no live stream; a lost session gets 401).
// The data: a fresh PGlite data dir with OU open to visitors (PUBLIC_CAMPUSES, decision 0135),
// one student who can sign in and BENCH_POSTS (30) text posts of theirs.
import { execFile, spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { hashPassword } from "better-auth/crypto";
import { chromium } from "playwright-core";
import { seedCampuses } from "~/server/campuses/campuses";
import { openDatabase } from "~/server/db/client";
import { migrateDatabase } from "~/server/db/migrate";
import { account, posts, user } from "~/server/db/schema";
import { plainTextToRichText, richTextToPlainText } from "~/server/posts/rich-text.shared";
import { startAppProcess } from "../scripts/app-process";
import { FIRST_LOAD_TARGET_KIB, firstLoadFiles, readManifest } from "../scripts/js-budget";
import { CHROMIUM_ARGS } from "../tests/e2e/support/env";
import { builtAppEnv, signInThroughLogin } from "./app";

const PORT = Number(process.env.BENCH_PORT ?? 4283);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const POSTS = Number(process.env.BENCH_POSTS ?? 30);
const LIGHTHOUSE = process.env.LIGHTHOUSE_BIN ?? "/tmp/lh/node_modules/.bin/lighthouse";
const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const DEVTOOLS_PORT = PORT + 1;
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
  /** Script bytes over the wire (as sent: brotli for the build's files, decision 0430), KiB, everything the run fetched. */
  scriptKib: number;
  /** Accessibility audits that failed, by id. */
  failing: string[];
  /** Whether the page's live stream (`/events`) was answered 200: a signed-in page throughout. */
  signedIn: boolean;
  /** What Lighthouse took as the largest contentful paint. */
  lcpElement: string;
}

interface LighthouseReport {
  categories: Record<string, { score: number | null; auditRefs: { id: string }[] }>;
  audits: Record<
    string,
    {
      score: number | null;
      scoreDisplayMode?: string;
      numericValue?: number;
      details?: {
        items?: {
          url?: string;
          statusCode?: number;
          resourceType?: string;
          transferSize?: number;
          node?: { snippet?: string };
          items?: { node?: { snippet?: string } }[];
        }[];
      };
    }
  >;
}

/** A browser of its own for one run: a fresh profile, reachable on DEVTOOLS_PORT. */
async function launchBrowser(): Promise<{ stop(): Promise<void> }> {
  const profile = await mkdtemp(path.join(os.tmpdir(), "cbs-first-load-chromium-"));
  const browser = spawn(
    CHROME,
    [
      ...CHROMIUM_ARGS,
      `--remote-debugging-port=${DEVTOOLS_PORT}`,
      `--user-data-dir=${profile}`,
      "about:blank",
    ],
    { stdio: "ignore" },
  );
  const exited = new Promise<void>((resolve) => browser.once("exit", () => resolve()));
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ready = await fetch(`http://127.0.0.1:${DEVTOOLS_PORT}/json/version`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline || browser.exitCode !== null) {
      browser.kill("SIGKILL");
      throw new Error(`${CHROME} did not open its DevTools port ${DEVTOOLS_PORT}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    async stop() {
      browser.kill("SIGTERM");
      await exited;
      await rm(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    },
  };
}

/** Puts the session cookie (`name=value; name=value` from /login) into the running browser. */
async function setSessionCookie(cookie: string): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${DEVTOOLS_PORT}`);
  try {
    const context = browser.contexts()[0];
    if (!context) throw new Error("the browser has no default context");
    await context.addCookies(
      cookie.split("; ").map((pair) => {
        const at = pair.indexOf("=");
        return {
          name: pair.slice(0, at),
          value: pair.slice(at + 1),
          domain: "localhost",
          path: "/",
          httpOnly: true,
          // The app's cookies are Secure (decision 0003); a browser accepts them from http://localhost.
          secure: true,
          sameSite: "Lax" as const,
        };
      }),
    );
  } finally {
    await browser.close();
  }
}

/** One run; Lighthouse's occasional failure to record a trace (NO_NAVSTART) is retried twice. */
async function lighthouse(url: string, cookie: string | null, out: string): Promise<LighthouseRun> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await lighthouseOnce(url, cookie, out);
    } catch (error) {
      if (attempt === 3) throw error;
      console.error(`Lighthouse failed (attempt ${attempt}), again: ${String(error).split("\n")[0]}`);
    }
  }
}

async function lighthouseOnce(url: string, cookie: string | null, out: string): Promise<LighthouseRun> {
  const browser = await launchBrowser();
  try {
    if (cookie) await setSessionCookie(cookie);
    await promisify(execFile)(
      LIGHTHOUSE,
      [
        url,
        `--port=${DEVTOOLS_PORT}`,
        // Keeps the cookie; the profile is new for every run, so the cache is cold all the same.
        "--disable-storage-reset",
        "--form-factor=mobile",
        "--only-categories=performance,accessibility",
        "--output=json",
        `--output-path=${out}`,
        "--quiet",
      ],
      { maxBuffer: 64 * 1024 * 1024 },
    );
  } finally {
    await browser.stop();
  }
  const report = JSON.parse(readFileSync(out, "utf8")) as LighthouseReport;
  const audit = (id: string) => report.audits[id]?.numericValue ?? Number.NaN;
  const requests = report.audits["network-requests"]?.details?.items ?? [];
  const a11yIds = report.categories.accessibility?.auditRefs.map((ref) => ref.id) ?? [];
  return {
    performance: Math.round((report.categories.performance?.score ?? 0) * 100),
    accessibility: Math.round((report.categories.accessibility?.score ?? 0) * 100),
    lcpMs: audit("largest-contentful-paint"),
    fcpMs: audit("first-contentful-paint"),
    cls: audit("cumulative-layout-shift"),
    tbtMs: audit("total-blocking-time"),
    scriptKib:
      requests
        .filter((item) => item.resourceType === "Script")
        .reduce((sum, item) => sum + (item.transferSize ?? 0), 0) / 1024,
    failing: a11yIds.filter((id) => {
      const result = report.audits[id];
      return result?.score === 0 && result.scoreDisplayMode === "binary";
    }),
    signedIn: requests.some((item) => item.url?.endsWith("/events") && item.statusCode === 200),
    lcpElement: lcpSnippet(report),
  };
}

function lcpSnippet(report: LighthouseReport): string {
  const items = report.audits["largest-contentful-paint-element"]?.details?.items ?? [];
  for (const item of items) {
    const snippet = item.node?.snippet ?? item.items?.find((inner) => inner.node?.snippet)?.node?.snippet;
    if (snippet) return snippet.length > 80 ? `${snippet.slice(0, 77)}...` : snippet;
  }
  return "?";
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
    "| /home | performance | LCP | FCP | TBT | CLS | accessibility | scripts fetched (over the wire) | failing accessibility audits | signed in (/events 200) | LCP element |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const [who, runs] of Object.entries(results)) {
    const m = median(runs);
    lines.push(
      `| ${who} | ${m.performance} (runs: ${runs.map((r) => r.performance).join(", ")}) | ${(m.lcpMs / 1000).toFixed(2)} s | ${(m.fcpMs / 1000).toFixed(2)} s | ${Math.round(m.tbtMs)} ms | ${m.cls.toFixed(3)} | ${m.accessibility} | ${m.scriptKib.toFixed(1)} KiB | ${m.failing.join(", ") || "none"} | ${runs.map((r) => (r.signedIn ? "yes" : "no")).join(", ")} | \`${m.lcpElement.replaceAll("|", "\\|")}\` |`,
    );
  }
  lines.push("", "Each run (performance, LCP, TBT, CLS):", "");
  for (const [who, runs] of Object.entries(results)) {
    const each = runs.map(
      (r) =>
        `${r.performance}, ${(r.lcpMs / 1000).toFixed(2)} s, ${Math.round(r.tbtMs)} ms, ${r.cls.toFixed(3)}`,
    );
    lines.push(`- ${who}: ${each.join("; ")}`);
  }
  const report = lines.join("\n");
  console.log(report);
  if (results["signed in"]?.some((run) => !run.signedIn) || results.visitor?.some((run) => run.signedIn)) {
    console.error("A run was not the page it measures: its /events request (signed in: 200) says otherwise.");
    process.exitCode = 1;
  }
  await writeFile(path.join("bench", "results", "first-load.md"), `${report}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
