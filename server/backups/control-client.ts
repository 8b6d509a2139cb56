import { readFile } from "node:fs/promises";
import { request } from "node:http";
import path from "node:path";
import { CONTROL_FILE, type ControlFile, controlFileSchema } from "./control-server";

/**
 * Decision 0580: the command's side of the backup control (control-server.ts). node:http rather
 * than fetch, so the request carries exactly these headers and nothing a browser would send.
 */

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The running server's control address and secret, or null when no server of DATA_DIR runs. */
export async function readControlFile(dataDir: string): Promise<ControlFile | null> {
  let text: string;
  try {
    text = await readFile(path.join(dataDir, CONTROL_FILE), "utf8");
  } catch {
    return null;
  }
  let parsed: ControlFile;
  try {
    parsed = controlFileSchema.parse(JSON.parse(text));
  } catch {
    return null;
  }
  // A server that died leaves its file: the next start writes its own.
  return isRunning(parsed.pid) ? parsed : null;
}

/** Thrown when the server answered, but not with 200: its message says why. */
export class ControlRefusedError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "ControlRefusedError";
  }
}

export function callControl(control: ControlFile, route: string, body: object): Promise<unknown> {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: control.port,
        path: route,
        method: "POST",
        agent: false,
        headers: {
          authorization: `Bearer ${control.secret}`,
          "content-type": "application/json",
          "content-length": payload.length,
          connection: "close",
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          let value: unknown = null;
          try {
            value = JSON.parse(Buffer.concat(chunks).toString("utf8"));
          } catch {
            // Not JSON: the status tells.
          }
          if (res.statusCode === 200) resolve(value);
          else {
            const message = (value as { message?: unknown } | null)?.message;
            reject(
              new ControlRefusedError(res.statusCode ?? 0, typeof message === "string" ? message : "refused"),
            );
          }
        });
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}
