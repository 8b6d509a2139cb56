import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  COMPOSER_FORM_LIMITS,
  limitRequestBodies,
  MAX_FORM_BODY_BYTES,
  PROFILE_FORM_LIMITS,
} from "./body-limit";

// Decision 0120: request bodies are capped before anything reads them.

let server: http.Server;
let port: number;
const reached: string[] = [];

beforeAll(async () => {
  const app = express();
  app.use(limitRequestBodies());
  // An upload action that refuses without reading (a signed-out upload).
  app.post("/create/post.data", (req, res) => {
    reached.push(req.path);
    res.status(401).send("sign in");
  });
  // Any other action: reads what it is sent.
  app.post(/.*/, (req, res) => {
    reached.push(req.path);
    let bytes = 0;
    req.on("data", (chunk: Buffer) => {
      bytes += chunk.byteLength;
    });
    req.on("end", () => res.send(String(bytes)));
  });
  server = app.listen(0);
  await new Promise((resolve) => server.once("listening", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
  /** Body bytes the client had written when the answer came. */
  written: number;
}

/**
 * Posts to `path`: the headers first, then the body (declared or chunked) a
 * piece at a time, stopping as soon as an answer comes, as a client would.
 */
function post(
  path: string,
  options: { bytes: number; declared?: number | "chunked"; agent?: http.Agent },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = { "Content-Type": "application/x-www-form-urlencoded" };
    if (options.declared === "chunked") headers["Transfer-Encoding"] = "chunked";
    else headers["Content-Length"] = String(options.declared ?? options.bytes);
    // Without an agent that keeps connections, the client itself asks to close them.
    const agent = options.agent ?? new http.Agent({ keepAlive: true });
    const request = http.request({ port, path, method: "POST", headers, agent });
    let written = 0;
    let answered = false;
    request.on("response", (response) => {
      answered = true;
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (text: string) => {
        body += text;
      });
      response.on("end", () => {
        if (!options.agent) agent.destroy();
        resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, body, written });
      });
    });
    // The server may close while the client is still sending: the answer is what counts.
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    request.flushHeaders();
    const piece = Buffer.alloc(64 * 1024, 97);
    const send = () => {
      if (answered || request.destroyed) return;
      if (written >= options.bytes) {
        request.end();
        return;
      }
      const size = Math.min(piece.byteLength, options.bytes - written);
      written += size;
      request.write(piece.subarray(0, size), () => setTimeout(send, 1));
    };
    setTimeout(send, 20);
  });
}

describe("limitRequestBodies", () => {
  it("answers 413 to a declared body over 1 MB on an ordinary action, before it is read", async () => {
    reached.length = 0;
    const answer = await post("/post/abc", { bytes: 4 * 1024 * 1024 });
    expect(answer.status).toBe(413);
    expect(answer.connection).toBe("close");
    expect(reached).toEqual([]);
    expect(answer.written).toBeLessThan(4 * 1024 * 1024);
  });

  it("answers 411 to an undeclared (chunked) body on an ordinary action", async () => {
    reached.length = 0;
    const answer = await post("/post/abc", { bytes: 100_000, declared: "chunked" });
    expect(answer.status).toBe(411);
    expect(reached).toEqual([]);
  });

  it("lets small bodies through, and keeps the connection of a request read whole", async () => {
    const answer = await post("/post/abc", { bytes: 1000 });
    expect(answer).toMatchObject({ status: 200, body: "1000" });
    expect(answer.connection).not.toBe("close");
    expect(MAX_FORM_BODY_BYTES).toBe(1024 * 1024);
  });

  it("caps the upload actions at their own limits, data URLs and any case included", async () => {
    const overComposer = await post("/CREATE/post.data", {
      bytes: 10,
      declared: COMPOSER_FORM_LIMITS.maxBodyBytes + 1,
    });
    expect(overComposer.status).toBe(413);
    const overPhoto = await post("/profile/edit", {
      bytes: 10,
      declared: PROFILE_FORM_LIMITS.maxBodyBytes + 1,
    });
    expect(overPhoto.status).toBe(413);
    // Under the cap, a profile form goes through (the action reads it).
    const photo = await post("/profile/set-up.data", { bytes: 2 * 1024 * 1024 });
    expect(photo).toMatchObject({ status: 200, body: String(2 * 1024 * 1024) });
  });

  it("closes the connection when an action answers without reading the body (nothing left unread on it)", async () => {
    reached.length = 0;
    const answer = await post("/create/post.data", { bytes: 50 * 1024 * 1024, declared: "chunked" });
    expect(answer.status).toBe(401);
    expect(answer.connection).toBe("close");
    expect(reached).toEqual(["/create/post.data"]);
    expect(answer.written).toBeLessThan(50 * 1024 * 1024);
  });
});
