import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startAppProcess } from "../../../scripts/app-process";
import { DEVELOPMENT_BUILD_WARNING } from "../../../scripts/runtime-env.js";
import { APP_PORT, PRIVATE_CAMPUS, SINK_API_PORT, SMTP_PORT } from "./env";
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, startOidcServer } from "./oidc-server";
import { startSinkApi, startSmtpSink } from "./smtp-sink";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const logFile = path.join(root, "test-results", "e2e-app.log");

/** Variables of docs/contract.md that must not leak from the caller's shell into the app under test. */
const CONTRACT_VARIABLES = [
  "NODE_ENV",
  "DATA_DIR",
  "DATABASE_URL",
  "SMTP_URL",
  "MAIL_FROM",
  "APP_SECRET",
  "PUBLIC_URL",
  "STRIPE_SECRET_KEY",
  "STRIPE_WEBHOOK_SECRET",
  "GOOGLE_CLIENT_ID",
  "GOOGLE_CLIENT_SECRET",
  "GOOGLE_ISSUER",
  "TRUST_PROXY",
  "GEO_GATE",
  "FIREWALL",
  "CAMPUS_HOSTS",
  "SEED_DEMO",
  "PUBLIC_CAMPUSES",
  "TEST_FIXTURES",
  "TEST_CLOCK",
  "NOTIFICATION_EMAIL_DELAY",
  "VAPID_PUBLIC_KEY",
  "VAPID_PRIVATE_KEY",
  "VAPID_SUBJECT",
  "PUSH_LOCAL_SERVICE",
  "UNSUBSCRIBE_SECRET",
];

async function assertPortFree(port: number, what: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once("error", () =>
      reject(
        new Error(
          `Port ${port} (${what}) is in use: is another end-to-end run going on? ` +
            "Stop it, or choose other ports with E2E_APP_PORT, E2E_SMTP_PORT and E2E_SINK_API_PORT.",
        ),
      ),
    );
    probe.listen(port, () => probe.close(() => resolve()));
  });
}

/** The campus ids of docs/contract.md 'Campuses and hosts' (the app's copy of shared/campuses.json). */
function campusIds(): string[] {
  const list: { slug: string }[] = JSON.parse(
    readFileSync(path.join(root, "server/campuses/campuses.json"), "utf8"),
  );
  return list.map((campus) => campus.slug);
}

/**
 * Starts what the end-to-end tests talk to: a real SMTP sink (with a small
 * JSON API for the test workers) and the built app on a fresh embedded
 * database. The returned function is the global teardown: it stops the app
 * with SIGTERM and fails the run unless it exits 0 (graceful shutdown).
 */
export default async function globalSetup() {
  await assertPortFree(APP_PORT, "app under test");

  if (!existsSync(path.join(root, "build/server/index.js"))) {
    console.log("[e2e] no build found: running react-router build");
    const build = spawnSync(process.execPath, ["node_modules/@react-router/dev/bin.js", "build"], {
      cwd: root,
      stdio: "inherit",
    });
    if (build.status !== 0) throw new Error("react-router build failed");
  }

  const sink = await startSmtpSink({ port: SMTP_PORT });
  const sinkApi = await startSinkApi(sink, SINK_API_PORT);
  // Google sign-in against a local OpenID Connect provider (decision 0061); it must be up
  // before the app starts, which fetches its discovery document.
  const oidc = await startOidcServer({ appPort: APP_PORT });

  const dataDir = mkdtempSync(path.join(tmpdir(), "cbs-e2e-"));
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of CONTRACT_VARIABLES) delete env[name];
  Object.assign(env, {
    PORT: String(APP_PORT),
    DATA_DIR: dataDir,
    SMTP_URL: sink.url,
    GOOGLE_ISSUER: oidc.issuer,
    GOOGLE_CLIENT_ID: OIDC_CLIENT_ID,
    GOOGLE_CLIENT_SECRET: OIDC_CLIENT_SECRET,
    SEED_DEMO: "0",
    LOG_LEVEL: "warn",
    // Decision 0116: specs post faster than a person (infinite-scroll.spec.ts makes 17 posts in
    // seconds); the day's limit stays as in production.
    POSTS_PER_MINUTE: "60",
    // Every spec signs students up from 127.0.0.1: far more than the 10 an hour one address may
    // make (decision 0127). The limit itself is tested in server/accounts/accounts.test.ts.
    SIGN_UPS_PER_HOUR: "1000",
    // Decision 0155: POST /dev/test-student makes signed-in students for the specs (support/student.ts).
    TEST_FIXTURES: "1",
    // docs/contract.md NOTIFICATION_EMAIL_DELAY: tests do not wait two minutes for a notification e-mail.
    NOTIFICATION_EMAIL_DELAY: "0",
    // Decision 0460: the push specs' push service is web-push-testing on localhost (support/push-service.ts).
    PUSH_LOCAL_SERVICE: "1",
    // Decision 0135: visitors may read every campus but the privacy spec's own (support/env.ts).
    PUBLIC_CAMPUSES: campusIds()
      .filter((id) => id !== PRIVATE_CAMPUS)
      .join(","),
  });

  const stopHelpers = async () => {
    await oidc.close();
    await new Promise<void>((resolve) => sinkApi.close(() => resolve()));
    await sink.close();
    rmSync(dataDir, { recursive: true, force: true });
  };

  let app: Awaited<ReturnType<typeof startAppProcess>>;
  try {
    app = await startAppProcess({ env, port: APP_PORT, output: logFile, name: "app under test" });
  } catch (error) {
    await stopHelpers();
    throw error;
  }
  // Decision 0510: the app under test runs the production builds of React Router, React and React
  // DOM, as `npm start` does; main.js says at start when one is a development build.
  const startLog = readFileSync(logFile, "utf8");
  if (startLog.includes(DEVELOPMENT_BUILD_WARNING)) {
    await app.stop();
    await stopHelpers();
    throw new Error(`The app under test runs a development build:\n${startLog}`);
  }

  return async () => {
    const exit = await app.stop();
    await stopHelpers();
    // docs/contract.md: the server stops cleanly on SIGTERM.
    if (exit !== 0) {
      throw new Error(`The app did not shut down cleanly on SIGTERM (${exit}); see ${logFile}`);
    }
  };
}
