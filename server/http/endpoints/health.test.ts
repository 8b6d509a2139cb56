import { describe, expect, it } from "vitest";
import { createHealthCheck } from "./health";

function controlledProbe() {
  const calls: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  const probe = () =>
    new Promise<void>((resolve, reject) => {
      calls.push({ resolve, reject });
    });
  return { probe, calls };
}

describe("health check (decision 0107)", () => {
  it("waits for the first check, then answers from it without asking the database again", async () => {
    let clock = 0;
    const { probe, calls } = controlledProbe();
    const healthy = createHealthCheck({ probe, now: () => clock });
    const first = healthy();
    expect(calls).toHaveLength(1);
    calls[0]?.resolve();
    expect(await first).toBe(true);
    clock = 500;
    expect(await healthy()).toBe(true);
    expect(calls).toHaveLength(1);
  });

  it("answers at once from a recent result while a new check runs behind it", async () => {
    let clock = 0;
    const { probe, calls } = controlledProbe();
    const healthy = createHealthCheck({ probe, now: () => clock, refreshMs: 1_000, staleMs: 5_000 });
    const first = healthy();
    calls[0]?.resolve();
    await first;
    clock = 2_000;
    // The database is slow now: the answer does not wait for it.
    expect(await healthy()).toBe(true);
    expect(calls).toHaveLength(2);
    // Calls meanwhile share the one check in flight.
    expect(await healthy()).toBe(true);
    expect(calls).toHaveLength(2);
    calls[1]?.reject(new Error("connection refused"));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await healthy()).toBe(false);
  });

  it("reports a database that stopped answering once the last result is stale", async () => {
    let clock = 0;
    const { probe, calls } = controlledProbe();
    const healthy = createHealthCheck({ probe, now: () => clock, staleMs: 5_000, timeoutMs: 20 });
    const first = healthy();
    calls[0]?.resolve();
    await first;
    clock = 6_000;
    // Never answers: the probe times out and the answer is 'unhealthy'.
    expect(await healthy()).toBe(false);
  });
});
