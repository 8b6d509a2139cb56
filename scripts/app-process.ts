import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PRODUCTION_NODE_ARGS } from "./runtime-env.js";

// Decision 0156: the one way to start the built app (`node main.js`) from a test or
// the benchmark: spawn it with the caller's environment, wait until /healthz answers, stop it
// with SIGTERM (docs/contract.md: a clean exit), SIGKILL after a grace period. The e2e harness
// (tests/e2e/support/global-setup.ts), gates.spec.ts and the bench (bench/run.ts,
// bench/overload.ts) use it; each keeps its own environment.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export interface AppProcessOptions {
  /** The whole environment of the app: nothing of the caller's leaks in beyond what it passes. */
  env: NodeJS.ProcessEnv;
  /** Where /healthz is asked; the port must match env.PORT. */
  port: number;
  /** A file for the app's output, or "inherit" to share the caller's terminal. */
  output: string | "inherit";
  /** For messages: which app this is. */
  name?: string;
  startTimeoutMs?: number;
  /** Another checkout's build to start (the bench's before/after runs); this repository by default. */
  cwd?: string;
  /** Node's own arguments, before main.js: those of `npm start` (PRODUCTION_NODE_ARGS) unless given. */
  nodeArgs?: readonly string[];
  /**
   * Decision 0580: the app through Vite (`main.js --dev`, as `npm run dev`), which needs no build,
   * for the Vitest tests that run before `npm test` builds (scripts/backup.test.ts).
   */
  dev?: boolean;
}

export interface AppProcess {
  readonly pid: number | undefined;
  /** http://localhost:{port}{path} */
  url(pathname: string): string;
  /** How it exited (a code, or the signal), or null while it runs. */
  exited(): number | string | null;
  /** SIGTERM (SIGINT through Vite), then SIGKILL after `graceMs`: the exit code, or what happened instead. */
  stop(graceMs?: number): Promise<number | string>;
}

function tail(file: string, lines = 40): string {
  if (!existsSync(file)) return "(no log)";
  return readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
}

export async function startAppProcess(options: AppProcessOptions): Promise<AppProcess> {
  const cwd = options.cwd ?? root;
  if (!options.dev && !existsSync(path.join(cwd, "build/server/index.js"))) {
    throw new Error("No build: run `npx react-router build` first.");
  }
  const name = options.name ?? "app";
  const toFile = options.output !== "inherit";
  if (toFile) mkdirSync(path.dirname(options.output), { recursive: true });
  const log = toFile ? createWriteStream(options.output) : null;
  const child: ChildProcess = spawn(
    process.execPath,
    options.dev
      ? [...(options.nodeArgs ?? []), "main.js", "--dev"]
      : [...(options.nodeArgs ?? PRODUCTION_NODE_ARGS), "main.js"],
    {
      cwd,
      env: options.env,
      stdio: ["ignore", toFile ? "pipe" : "inherit", toFile ? "pipe" : "inherit"],
    },
  );
  if (log) {
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
  }
  let exit: number | string | null = null;
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => {
      exit = code ?? `signal ${signal}`;
      resolve(exit);
    }),
  );
  const described = () => (log ? `Its log (${options.output}):\n${tail(options.output)}` : "");

  const stop = async (graceMs = 20_000): Promise<number | string> => {
    if (exit === null) {
      // Through Vite, a Vite server of React Router's plugin answers SIGTERM by exiting (143) before
      // the app has closed its database; SIGINT reaches only main.js's clean stop.
      child.kill(options.dev ? "SIGINT" : "SIGTERM");
      const timer = new Promise<string>((resolve) =>
        setTimeout(() => resolve(`no exit within ${graceMs / 1000} s of SIGTERM`), graceMs).unref(),
      );
      const outcome = await Promise.race([exited, timer]);
      if (exit === null) {
        child.kill("SIGKILL");
        await exited;
        log?.end();
        return outcome;
      }
    }
    log?.end();
    return exit ?? "unknown";
  };

  const deadline = Date.now() + (options.startTimeoutMs ?? 90_000);
  for (;;) {
    if (exit !== null) {
      log?.end();
      throw new Error(`The ${name} exited with ${exit} while starting. ${described()}`);
    }
    try {
      if ((await fetch(`http://127.0.0.1:${options.port}/healthz`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop(2_000);
      throw new Error(`The ${name} did not answer /healthz in time. ${described()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    pid: child.pid,
    url: (pathname) => `http://localhost:${options.port}${pathname}`,
    exited: () => exit,
    stop,
  };
}
