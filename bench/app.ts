// The app a benchmark drives: how it is started, how the bench signs in to it, what CPU it used.
import { readFile } from "node:fs/promises";

/** The secret of the apps the benchmarks start (each its own data; never a deployment's). */
export const BENCH_APP_SECRET = "benchmark-secret-not-for-production-use-0123456789";

/**
 * What every benchmark's app process starts with: as deployed (decision 0003: React's production
 * build, Secure cookies, the geo gate, which loopback always passes), no demo data.
 */
export function builtAppEnv(port: number, secret: string = BENCH_APP_SECRET): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    NODE_ENV: "production",
    APP_SECRET: secret,
    SEED_DEMO: "0",
  };
}

/** Signs in through /login as a browser's form would: the session cookie of a signed-in page. */
export async function signInThroughLogin(base: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${base}/login`, {
    method: "POST",
    body: new URLSearchParams({ intent: "log-in", email, password }),
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
  });
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0] ?? "")
    .filter((pair) => pair.includes("session_token=") && !pair.endsWith("="))
    .join("; ");
  if (!cookie) throw new Error(`Sign-in through /login gave no session (status ${response.status})`);
  return cookie;
}

/**
 * CPU seconds the app has used (user + system), from /proc (Linux): its process and, with
 * WORKERS=n, the worker processes it started (its children, while they run).
 */
export async function cpuSeconds(pid: number | undefined): Promise<number> {
  if (!pid) return Number.NaN;
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const own = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
    const children = (await readFile(`/proc/${pid}/task/${pid}/children`, "utf8").catch(() => ""))
      .split(" ")
      .filter(Boolean)
      .map(Number);
    let total = own;
    for (const child of children) total += (await cpuSeconds(child)) || 0;
    return total;
  } catch {
    return Number.NaN;
  }
}
/** Linux's USER_HZ. */
const CLOCK_TICKS = 100;
