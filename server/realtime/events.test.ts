import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, type TestMember } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { currentUserSeq, publishUserEvent, userEventsAfter } from "./events";

let t: TestContext;
let alice: TestMember;
let bob: TestMember;

beforeAll(async () => {
  t = await createTestContext();
  alice = await createTestMember(t);
  bob = await createTestMember(t);
});
afterAll(() => t.close());

describe("per-user event sequence (decision 0210)", () => {
  it("numbers each user's events from 1 without gaps, separately per user", async () => {
    expect(await currentUserSeq(t.ctx.db, alice.id)).toBe(0);
    const first = await publishUserEvent(t.ctx.db, alice.id, { type: "chat", data: { chatId: "c1" } });
    const second = await publishUserEvent(t.ctx.db, alice.id, { type: "chat" });
    const bobs = await publishUserEvent(t.ctx.db, bob.id, { type: "badge" });
    expect([first, second, bobs]).toEqual([1, 2, 1]);
    expect(await currentUserSeq(t.ctx.db, alice.id)).toBe(2);
    expect(await userEventsAfter(t.ctx.db, alice.id, 1)).toEqual([{ seq: 2, type: "chat", data: {} }]);
  });

  it("records nothing when the change that published rolls back", async () => {
    const before = await currentUserSeq(t.ctx.db, bob.id);
    await expect(
      t.ctx.db.transaction(async (tx) => {
        await publishUserEvent(tx, bob.id, { type: "chat" });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await currentUserSeq(t.ctx.db, bob.id)).toBe(before);
    expect(await userEventsAfter(t.ctx.db, bob.id, before)).toEqual([]);
  });

  it("gives concurrent writers for one user distinct numbers in commit order", async () => {
    const seqs = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.ctx.db.transaction((tx) => publishUserEvent(tx, alice.id, { type: "n", data: { i } })),
      ),
    );
    expect(new Set(seqs).size).toBe(8);
    const replay = await userEventsAfter(t.ctx.db, alice.id, 2);
    expect(replay.map((event) => event.seq)).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
  });
});
