import type { AddressInfo } from "node:net";
import express from "express";
import { describe, expect, it } from "vitest";
import { trustedProxyHops } from "./app";

/** The client address an app with this setting sees for a request with this X-Forwarded-For. */
async function clientAddress(trustProxy: boolean, forwardedFor: string): Promise<string | undefined> {
  const app = express();
  app.set("trust proxy", trustedProxyHops({ trustProxy }));
  app.get("/", (req, res) => {
    res.json({ ip: req.ip });
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/`, {
      headers: { "x-forwarded-for": forwardedFor },
    });
    return ((await response.json()) as { ip?: string }).ip;
  } finally {
    server.close();
  }
}

describe("TRUST_PROXY (docs/contract.md 'Environment')", () => {
  it("takes the address the proxy in front saw, not one the client wrote before it", async () => {
    // The client sends 6.6.6.6 itself; the proxy appends the address it saw, 203.0.113.7.
    expect(await clientAddress(true, "6.6.6.6, 203.0.113.7")).toBe("203.0.113.7");
    expect(await clientAddress(true, "203.0.113.7")).toBe("203.0.113.7");
  });

  it("ignores X-Forwarded-For without it", async () => {
    expect(await clientAddress(false, "6.6.6.6")).toBe("127.0.0.1");
  });
});
