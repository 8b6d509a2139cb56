import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The local push service of the web push tests (decision 0252): the `web-push-testing` package's
 * server, run as its own process on a free port. It checks each push's VAPID signature and
 * decrypts its payload, as a browser vendor's push service would, without the internet.
 */
export interface PushService {
  origin: string;
  /** A subscription as PushSubscription.toJSON() gives it, plus the service's handle on it. */
  subscribe(vapidPublicKey: string): Promise<PushServiceSubscription>;
  /** The decrypted payloads received for a subscription, oldest first. */
  messages(clientHash: string): Promise<string[]>;
  /** Makes the service answer 410 Gone for the subscription, as for one the browser dropped. */
  expire(clientHash: string): Promise<void>;
  close(): Promise<void>;
}

export interface PushServiceSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  clientHash: string;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SERVER_SCRIPT = path.join(root, "node_modules/web-push-testing/src/bin/server.js");

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

export async function startPushService(): Promise<PushService> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [SERVER_SCRIPT, String(port)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("web-push-testing did not start")), 10_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("Server running")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`web-push-testing exited with ${code}`));
    });
  });
  const origin = `http://localhost:${port}`;
  return {
    origin,
    async subscribe(vapidPublicKey) {
      const response = await post(`${origin}/subscribe`, {
        userVisibleOnly: "true",
        applicationServerKey: vapidPublicKey,
      });
      if (!response.ok) throw new Error(`subscribe: ${response.status} ${await response.text()}`);
      const { data } = (await response.json()) as { data: PushServiceSubscription };
      return data;
    },
    async messages(clientHash) {
      const response = await post(`${origin}/get-notifications`, { clientHash });
      if (!response.ok) throw new Error(`get-notifications: ${response.status} ${await response.text()}`);
      const { data } = (await response.json()) as { data: { messages: string[] } };
      return data.messages;
    },
    async expire(clientHash) {
      const response = await post(`${origin}/expire-subscription/${clientHash}`, {});
      if (!response.ok) throw new Error(`expire-subscription: ${response.status}`);
    },
    async close() {
      if (child.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      });
    },
  };
}
