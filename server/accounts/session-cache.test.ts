import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieFrom, createTestUser, requestHeaders } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { session, user } from "../db/schema";
import { signIn, signOut } from "./accounts";
import { createSessionLookupCache, SESSION_LOOKUP_WINDOW_MS } from "./session-cache";
import { changePassword } from "./settings";
import { getViewerFromHeaders } from "./viewer";

describe("the session lookup cache (decision 0350)", () => {
  const far = new Date(Date.UTC(2100, 0, 1));

  function cacheAt(start: number, options: { maxEntries?: number } = {}) {
    let now = start;
    const cache = createSessionLookupCache({ windowMs: 5_000, now: () => now, ...options });
    const advance = (ms: number) => {
      now += ms;
    };
    return { cache, advance };
  }

  it("answers a remembered cookie within the window, and not after it", () => {
    const { cache, advance } = cacheAt(1_000);
    cache.remember("tok.sig", "user-1", far);
    expect(cache.get("tok.sig")).toBe("user-1");
    advance(4_999);
    expect(cache.get("tok.sig")).toBe("user-1");
    advance(1);
    expect(cache.get("tok.sig")).toBeNull();
  });

  it("believes a session no longer than the session itself lasts", () => {
    const { cache, advance } = cacheAt(1_000);
    cache.remember("tok.sig", "user-1", new Date(3_000));
    advance(1_999);
    expect(cache.get("tok.sig")).toBe("user-1");
    advance(1);
    expect(cache.get("tok.sig")).toBeNull();
  });

  it("needs the very cookie: the same token with another signature is not answered", () => {
    const { cache } = cacheAt(0);
    cache.remember("tok.sig", "user-1", far);
    expect(cache.get("tok.forged")).toBeNull();
    expect(cache.get("tok")).toBeNull();
    expect(cache.get("tok.sig")).toBe("user-1");
  });

  it("forgets a token at once", () => {
    const { cache } = cacheAt(0);
    cache.remember("a.sig", "user-1", far);
    cache.remember("b.sig", "user-1", far);
    cache.forget("a");
    expect(cache.get("a.sig")).toBeNull();
    expect(cache.get("b.sig")).toBe("user-1");
  });

  it("holds a bounded number of tokens, dropping the oldest", () => {
    const { cache } = cacheAt(0, { maxEntries: 2 });
    cache.remember("a.sig", "user-a", far);
    cache.remember("b.sig", "user-b", far);
    cache.remember("c.sig", "user-c", far);
    expect(cache.get("a.sig")).toBeNull();
    expect(cache.get("b.sig")).toBe("user-b");
    expect(cache.get("c.sig")).toBe("user-c");
  });
});

describe("getViewerFromHeaders with the session lookup cache (decision 0350)", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
    // better-auth checks session expiry against the real time; start our clock there.
    t.clock.set(new Date());
  });
  afterAll(() => t.close());

  const viewerOf = (cookie: string) => getViewerFromHeaders(t.ctx, t.auth, requestHeaders({ cookie }));

  async function secondSession(email: string, password: string): Promise<string> {
    const signedIn = await signIn(
      t.ctx,
      t.auth,
      { email, password },
      { clientIp: null, headers: requestHeaders() },
    );
    return cookieFrom(signedIn.headers);
  }

  it("believes a session deleted behind its back (another process) for the window, no longer", async () => {
    const student = await createTestUser(t);
    expect((await viewerOf(student.cookie))?.id).toBe(student.id);
    await t.ctx.db.delete(session).where(eq(session.userId, student.id));
    expect((await viewerOf(student.cookie))?.id).toBe(student.id);
    t.clock.advance(SESSION_LOOKUP_WINDOW_MS);
    expect(await viewerOf(student.cookie)).toBeNull();
  });

  it("ends a session signed out in this process at once", async () => {
    const student = await createTestUser(t);
    const other = await secondSession(student.email, student.password);
    expect((await viewerOf(student.cookie))?.id).toBe(student.id);
    expect((await viewerOf(other))?.id).toBe(student.id);
    await signOut(t.auth, requestHeaders({ cookie: student.cookie }));
    expect(await viewerOf(student.cookie)).toBeNull();
    expect((await viewerOf(other))?.id).toBe(student.id);
  });

  it("ends the other devices' sessions at once when the password changes", async () => {
    const student = await createTestUser(t);
    const otherDevice = await secondSession(student.email, student.password);
    const viewer = await viewerOf(student.cookie);
    if (!viewer) throw new Error("not signed in");
    expect((await viewerOf(otherDevice))?.id).toBe(student.id);
    const changed = await changePassword(
      t.ctx,
      t.auth,
      viewer,
      { currentPassword: student.password, newPassword: "brand-new-1", confirmPassword: "brand-new-1" },
      requestHeaders({ cookie: student.cookie }),
    );
    expect(await viewerOf(otherDevice)).toBeNull();
    expect((await viewerOf(cookieFrom(changed.headers)))?.id).toBe(student.id);
  });

  it("still reads the user on every request: a ban counts at once", async () => {
    const student = await createTestUser(t);
    expect((await viewerOf(student.cookie))?.id).toBe(student.id);
    await t.ctx.db.update(user).set({ banned: true }).where(eq(user.id, student.id));
    expect(await viewerOf(student.cookie)).toBeNull();
  });

  it("refuses a remembered token under another signature", async () => {
    const student = await createTestUser(t);
    expect((await viewerOf(student.cookie))?.id).toBe(student.id);
    const forged = student.cookie.replace(/\.[^.;]+$/, ".Zm9yZ2Vk");
    expect(forged).not.toBe(student.cookie);
    expect(await viewerOf(forged)).toBeNull();
  });
});
