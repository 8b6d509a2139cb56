import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { BrowserContext } from "@playwright/test";
import { type AppProcess, startAppProcess } from "../../../scripts/app-process";
import type { TestStudent, TestStudentRequest } from "../../../server/dev/test-student";
import { TEST_CLOCK_PORT } from "./env";

// Decision 0481: an app of its own on the test clock (TEST_CLOCK=1) for the specs that move time.
// Moving the shared app's clock would move it under every spec running beside it (a code mailed
// before the move would expire), so each such spec file starts this one, from the same build on
// an empty data folder, and moves it with POST /dev/clock.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

export interface ClockApp {
  app: AppProcess;
  /** http://localhost:{port}, which serves OU. */
  origin: string;
  /** The app's time (GET /dev/clock). */
  now(): Promise<Date>;
  /** Moves the app's clock forward (POST /dev/clock); its time after the move. */
  advance(seconds: number): Promise<Date>;
  /** A signed-in student of OU (POST /dev/test-student), its cookie added to `context`. */
  createStudent(context: BrowserContext, request?: TestStudentRequest): Promise<TestStudent>;
  stop(): Promise<void>;
}

/**
 * `env`: variables of the spec's own (admin-console.spec.ts's SMTP_URL, to a sink it can make fail).
 * `port`: a spec that may run beside the other clock specs takes one of its own.
 */
export async function startClockApp(
  name: string,
  env: Record<string, string> = {},
  port: number = TEST_CLOCK_PORT,
): Promise<ClockApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `cbs-e2e-${name}-`));
  const app = await startAppProcess({
    // Only what the app needs: nothing of the caller's docs/contract.md variables leaks in.
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      SEED_DEMO: "0",
      TEST_FIXTURES: "1",
      TEST_CLOCK: "1",
      NOTIFICATION_EMAIL_DELAY: "0",
      ...env,
    },
    port,
    output: path.join(root, "test-results", `e2e-${name}-app.log`),
    name: `${name} app`,
  }).catch((error) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  const origin = `http://localhost:${port}`;
  const clockAnswer = async (response: Response) => {
    if (response.status !== 200) throw new Error(`/dev/clock: ${response.status} ${await response.text()}`);
    return new Date(((await response.json()) as { now: string }).now);
  };
  return {
    app,
    origin,
    now: async () => clockAnswer(await fetch(app.url("/dev/clock"))),
    advance: async (seconds) =>
      clockAnswer(
        await fetch(app.url("/dev/clock"), {
          method: "POST",
          body: new URLSearchParams({ advance: String(seconds) }),
        }),
      ),
    async createStudent(context, request = {}) {
      const response = await fetch(app.url("/dev/test-student"), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(request),
      });
      if (response.status !== 201)
        throw new Error(`POST /dev/test-student: ${response.status} ${await response.text()}`);
      const student = (await response.json()) as TestStudent;
      await context.addCookies([{ ...student.cookie, url: origin }]);
      return student;
    },
    async stop() {
      await app.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
