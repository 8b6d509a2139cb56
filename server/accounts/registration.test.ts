import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cookieFrom,
  createTestUser,
  lastMailTo,
  requestHeaders,
  uniqueEmail,
} from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { user } from "../db/schema";
import { registerUser } from "./accounts";
import { getViewerFromHeaders } from "./viewer";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
  // better-auth checks session and reset-token expiry against the real time; start our clock there.
  t.clock.set(new Date());
});
afterAll(() => t.close());

const MINUTE = 60_000;
async function userRow(id: string) {
  const [row] = await t.ctx.db.select().from(user).where(eq(user.id, id));
  if (!row) throw new Error(`no user ${id}`);
  return row;
}

async function viewerOf(cookie: string) {
  return getViewerFromHeaders(t.ctx, t.auth, requestHeaders({ cookie }));
}

describe("registerUser (spec 1 §4, §5)", () => {
  it("creates the user with the spec's defaults, normalised names, and signs them in", async () => {
    const email = uniqueEmail("Olivia.Smith");
    const signedIn = await registerUser(
      t.ctx,
      t.auth,
      { fullName: "  olivia   SMITH ", email: email.toUpperCase(), password: "secret123", terms: true },
      { campusId: "ut", clientIp: null, headers: requestHeaders() },
    );
    const row = await userRow(signedIn.userId);
    expect(row).toMatchObject({
      email: email.toLowerCase(),
      firstName: "Olivia",
      lastName: "S.",
      name: "Olivia S.",
      campusId: "ut",
      verified: false,
      schoolVerified: false,
      emailNotifications: true,
      availableFunds: 0,
      type: "individual",
      banned: false,
    });
    expect(row.username).toMatch(/^olivias(-\d+)?$/);
    expect(signedIn.verified).toBe(false);

    const viewer = await viewerOf(cookieFrom(signedIn.headers));
    expect(viewer?.id).toBe(signedIn.userId);
    // A code is on its way.
    const mail = await lastMailTo(t, email, "verification-code");
    expect(mail.campusId).toBe("ut");
  });

  it("gives the next free username with -2, -3 … when it is taken", async () => {
    const names = ["Marcus Johnson", "marcus jones", "MARCUS JAMES"];
    const usernames: string[] = [];
    for (const fullName of names) {
      const student = await createTestUser(t, { fullName });
      usernames.push((await userRow(student.id)).username);
    }
    expect(usernames).toEqual(["marcusj", "marcusj-2", "marcusj-3"]);
  });

  it("never hands out a reserved username: a name that makes one gets the next free suffix (decision 0125)", async () => {
    // 'Hom E.' → 'home', 'Admi N.' → 'admin', 'Health Z.' → 'healthz', 'Ap I.' → 'api'.
    const usernames: string[] = [];
    for (const fullName of ["Hom E", "admi n", "Health Z", "Ap I", "Ou Ou"]) {
      const student = await createTestUser(t, { fullName });
      usernames.push((await userRow(student.id)).username);
    }
    expect(usernames).toEqual(["home-2", "admin-2", "healthz-2", "api-2", "ouo"]);
  });

  it("lets a dorm behind one address sign up 25 in 5 minutes, then refuses a script with a clear message (decision 0446)", async () => {
    const ip = "198.51.100.200";
    const signUp = (email: string, from = ip) =>
      registerUser(
        t.ctx,
        t.auth,
        { fullName: "Robin Gray", email, password: "secret123", terms: true },
        { campusId: "ou", clientIp: from, headers: requestHeaders({ ip: from }) },
      );
    // Decision 0446: an orientation-week stand behind one campus address gets 25 in 5 minutes, as
    // Mastodon allows, where 10 an hour turned the eleventh student away.
    for (let i = 0; i < 25; i++) await signUp(uniqueEmail("burst"));
    const refused = uniqueEmail("burst");
    await expect(signUp(refused)).rejects.toMatchObject({
      code: "too-many-sign-ups",
      message: "Too many sign-ups from this network. Try again in a few minutes.",
    });
    expect(await t.ctx.db.select().from(user).where(eq(user.email, refused))).toEqual([]);
    // Other addresses are not affected; the address may sign up again 5 minutes later, not before.
    await signUp(uniqueEmail("burst"), "198.51.100.201");
    t.clock.advance(4 * MINUTE);
    try {
      await expect(signUp(refused)).rejects.toMatchObject({ code: "too-many-sign-ups" });
      t.clock.advance(MINUTE);
      await signUp(refused);
    } finally {
      t.clock.set(new Date());
    }
    // 27 sign-ups, each hashing a password.
  }, 90_000);

  it("refuses an e-mail that is taken, whatever its case", async () => {
    const student = await createTestUser(t);
    await expect(
      registerUser(
        t.ctx,
        t.auth,
        { fullName: "Other Person", email: student.email.toUpperCase(), password: "secret123", terms: true },
        { campusId: "ou", clientIp: null, headers: requestHeaders() },
      ),
    ).rejects.toMatchObject({ code: "email-taken", message: "Email has already been taken." });
  });

  it("refuses a banned address with 'Account has been banned'", async () => {
    const banned = await createTestUser(t, { banned: true });
    await expect(
      registerUser(
        t.ctx,
        t.auth,
        { fullName: "Banned Again", email: banned.email, password: "secret123", terms: true },
        { campusId: "ou", clientIp: null, headers: requestHeaders() },
      ),
    ).rejects.toMatchObject({ code: "banned", message: "Account has been banned" });
  });

  it("validates like the form, with the spec's messages, and creates nothing", async () => {
    const email = uniqueEmail();
    const attempts = [
      [{ fullName: "Olivia", email, password: "secret123", terms: true }, "Full name is required"],
      [{ fullName: "O Smith", email, password: "secret123", terms: true }, "Name is Invalid"],
      [{ fullName: "Olivia Sm1th", email, password: "secret123", terms: true }, "Your Name is Invalid."],
      [
        { fullName: "Olivia Smith", email: "nope", password: "secret123", terms: true },
        "Invalid email address!",
      ],
      [{ fullName: "Olivia Smith", email, password: "12345", terms: true }, "Password too short."],
      [{ fullName: "Olivia Smith", email, password: "", terms: true }, "Password is required."],
      [
        { fullName: "Olivia Smith", email, password: "secret123", terms: false },
        "You must agree to the Terms of Service and Privacy Policy.",
      ],
    ] as const;
    for (const [input, message] of attempts) {
      await expect(
        registerUser(t.ctx, t.auth, input, { campusId: "ou", clientIp: null, headers: requestHeaders() }),
      ).rejects.toMatchObject({ code: "invalid-input", message });
    }
    const rows = await t.ctx.db.select().from(user).where(eq(user.email, email));
    expect(rows).toHaveLength(0);
  });
});
