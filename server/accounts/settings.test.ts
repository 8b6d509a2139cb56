import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cookieFrom,
  createTestUser,
  lastCodeMailedTo,
  requestHeaders,
  uniqueEmail,
} from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { user, verificationCodes } from "../db/schema";
import { signIn } from "./accounts";
import { birthDateSchema, PHONE_PATTERN, phoneSchema, usernameSchema } from "./schemas.shared";
import {
  changeBirthDate,
  changeGender,
  changePassword,
  changePhone,
  changeUsername,
  confirmEmailChange,
  getAccountOverview,
  getAvailableFunds,
  requestEmailChange,
} from "./settings";
import { getViewerById, getViewerFromHeaders } from "./viewer";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const ou = { id: "ou", name: "OU", generic: false };

async function student(options: { fullName?: string; verified?: boolean } = {}) {
  const created = await createTestUser(t, { verified: options.verified ?? true, fullName: options.fullName });
  const viewer = await getViewerById(t.ctx, created.id);
  if (!viewer) throw new Error("no viewer");
  return { ...created, viewer };
}

async function userRow(id: string) {
  const [row] = await t.ctx.db.select().from(user).where(eq(user.id, id));
  if (!row) throw new Error("no user");
  return row;
}

function firstMessage(result: { success: boolean; error?: { issues: { message: string }[] } }) {
  return result.success ? "ok" : result.error?.issues[0]?.message;
}

describe("account overview (spec 1 §2 'Settings')", () => {
  it("reads the fields the overview rows show, with the sign-up defaults", async () => {
    const { viewer, email } = await student();
    const overview = await getAccountOverview(t.ctx, viewer.id);
    expect(overview).toMatchObject({
      username: viewer.username,
      email,
      phone: null,
      schoolEmail: null,
      schoolVerified: false,
      gender: null,
      birthDate: null,
    });
    expect(overview.createdAt).toBeInstanceOf(Date);
    // spec 1 §4: available_funds starts at 0 cents.
    expect(await getAvailableFunds(t.ctx, viewer.id)).toBe(0);
  });
});

describe("username (spec 1 §5 'Username change')", () => {
  it.each([
    ["", "Username is required."],
    ["   ", "Username is required."],
    ["abc", "Must be longer than 4 characters."],
    ["abcd", "ok"],
    ["Jane_Doe-22", "ok"],
    ["jane doe", "Only letters, numbers, _ and -"],
    ["jane.doe", "Only letters, numbers, _ and -"],
    ["jané", "Only letters, numbers, _ and -"],
    ["a".repeat(50), "ok"],
    ["a".repeat(51), "Username must be 50 characters or fewer."],
  ])("%j → %s", (username, expected) => {
    expect(firstMessage(usernameSchema.safeParse({ username }))).toBe(expected);
  });

  it("saves the new username in lower case", async () => {
    const { viewer } = await student();
    const wanted = `New_Name-${viewer.id.slice(0, 6)}`;
    const result = await changeUsername(t.ctx, viewer, { username: wanted });
    expect(result).toEqual({ username: wanted.toLowerCase(), changed: true });
    expect((await userRow(viewer.id)).username).toBe(wanted.toLowerCase());
  });

  it("refuses a username another account has, in any case: 'That username has been taken.'", async () => {
    const first = await student();
    const second = await student();
    await expect(
      changeUsername(t.ctx, second.viewer, { username: first.viewer.username.toUpperCase() }),
    ).rejects.toMatchObject({ message: "That username has been taken.", field: "username" });
    expect((await userRow(second.viewer.id)).username).toBe(second.viewer.username);
  });

  it("refuses names the app's pages use, since profiles live at /{username}", async () => {
    const { viewer } = await student();
    for (const username of [
      "settings",
      "Search",
      "home",
      "logout",
      "HealthZ",
      "support",
      "Staff",
      "okstate",
    ]) {
      await expect(changeUsername(t.ctx, viewer, { username })).rejects.toMatchObject({
        message: "That username has been taken.",
      });
    }
  });

  it("keeps one's own username without complaint", async () => {
    const { viewer } = await student();
    expect(await changeUsername(t.ctx, viewer, { username: viewer.username })).toEqual({
      username: viewer.username,
      changed: false,
    });
  });

  it("refuses invalid input on the server too", async () => {
    const { viewer } = await student();
    await expect(changeUsername(t.ctx, viewer, { username: "ab!" })).rejects.toMatchObject({
      message: "Must be longer than 4 characters.",
    });
    await expect(changeUsername(t.ctx, viewer, { username: "ab!cd" })).rejects.toMatchObject({
      message: "Only letters, numbers, _ and -",
    });
  });
});

describe("phone (spec 1 §5 'Phone')", () => {
  it.each([
    ["", "A phone # is required"],
    ["4055550134", "ok"],
    ["405-555-0134", "ok"],
    ["405.555.0134", "ok"],
    ["(405) 555-0134", "ok"],
    ["+1 405 555 0134", "ok"],
    ["+1-405-555-0134", "ok"],
    ["+1 (405) 555-0134", "ok"],
    ["1(405)555-0134", "ok"],
    ["+44 20 7946 0958", "ok"],
    ["+8613800138000", "ok"],
    // The country part and 6 further digits: seven digits at the least.
    ["555-0134", "ok"],
    ["555-013", "Invalid phone #"],
    ["123456", "Invalid phone #"],
    // At most 3 + 14 digits.
    ["+12345678901234567", "ok"],
    ["+123456789012345678", "Invalid phone #"],
    // No letters, no doubled or trailing separators, no plus in the middle, at most 20 characters.
    ["405-555-CALL", "Invalid phone #"],
    ["405--555-0134", "Invalid phone #"],
    ["405-555-0134-", "Invalid phone #"],
    ["405+5550134", "Invalid phone #"],
    ["405 () 5550134", "Invalid phone #"],
    ["405-(-5550134", "Invalid phone #"],
    ["+1 (405) 555 0134 111", "Invalid phone #"],
  ])("%j → %s", (phone, expected) => {
    expect(firstMessage(phoneSchema.safeParse({ phone }))).toBe(expected);
  });

  it("matches the pattern of the spec, not just the length", () => {
    expect(PHONE_PATTERN.test("1234567")).toBe(true);
    expect(PHONE_PATTERN.test("++1234567")).toBe(false);
  });

  it("saves a valid number and refuses an invalid one without writing", async () => {
    const { viewer } = await student();
    await changePhone(t.ctx, viewer, { phone: " (405) 555-0134 " });
    expect((await userRow(viewer.id)).phone).toBe("(405) 555-0134");
    await expect(changePhone(t.ctx, viewer, { phone: "12" })).rejects.toMatchObject({
      message: "Invalid phone #",
    });
    expect((await userRow(viewer.id)).phone).toBe("(405) 555-0134");
  });
});

describe("gender (spec 1 §5 'Gender')", () => {
  it("saves male, female or other and refuses anything else with 'Must select a gender'", async () => {
    const { viewer } = await student();
    await changeGender(t.ctx, viewer, { gender: "other" });
    expect((await userRow(viewer.id)).gender).toBe("other");
    for (const gender of [undefined, "", "robot"]) {
      await expect(
        changeGender(t.ctx, viewer, { gender } as unknown as { gender: "male" }),
      ).rejects.toMatchObject({ message: "Must select a gender" });
    }
    expect((await userRow(viewer.id)).gender).toBe("other");
  });
});

describe("birth date (spec 1 §5 'Birth date')", () => {
  it.each([
    [{ month: "3", day: "4", year: "2001" }, "ok"],
    [{ month: "2", day: "29", year: "2000" }, "ok"],
    [{ month: "12", day: "31", year: "1970" }, "ok"],
    [{ month: "1", day: "1", year: "2021" }, "ok"],
    [{ month: "", day: "4", year: "2001" }, "Please fill in all the fields"],
    [{ month: "3", day: "4" }, "Please fill in all the fields"],
    [{}, "Please fill in all the fields"],
    [{ month: "2", day: "30", year: "2001" }, "That date doesn't exist. Check the month and day."],
    [{ month: "2", day: "29", year: "2001" }, "That date doesn't exist. Check the month and day."],
    [{ month: "4", day: "31", year: "2001" }, "That date doesn't exist. Check the month and day."],
    [{ month: "13", day: "1", year: "2001" }, "That date doesn't exist. Check the month and day."],
    [{ month: "1", day: "32", year: "2001" }, "That date doesn't exist. Check the month and day."],
    // Years 2021 down to 1970 only (spec 1 §9).
    [{ month: "1", day: "1", year: "1969" }, "That date doesn't exist. Check the month and day."],
    [{ month: "1", day: "1", year: "2022" }, "That date doesn't exist. Check the month and day."],
    [{ month: "x", day: "1", year: "2001" }, "That date doesn't exist. Check the month and day."],
  ])("%j → %s", (input, expected) => {
    expect(firstMessage(birthDateSchema.safeParse(input))).toBe(expected);
  });

  it("stores {month, day, year} as numbers and refuses February 30 without writing", async () => {
    const { viewer } = await student();
    await changeBirthDate(t.ctx, viewer, { month: "3", day: "4", year: "2001" });
    expect((await userRow(viewer.id)).birthDate).toEqual({ month: 3, day: 4, year: 2001 });
    await expect(
      changeBirthDate(t.ctx, viewer, { month: "2", day: "30", year: "2001" }),
    ).rejects.toMatchObject({ message: "That date doesn't exist. Check the month and day." });
    expect((await userRow(viewer.id)).birthDate).toEqual({ month: 3, day: 4, year: 2001 });
  });
});

describe("e-mail change (spec 1 §4, §5 'E-mail change')", () => {
  it("mails a code to the new address; the right code makes it the sign-in e-mail", async () => {
    const { viewer, password } = await student();
    const newEmail = uniqueEmail("moved");
    const sent = await requestEmailChange(t.ctx, viewer, { email: newEmail.toUpperCase() }, ou);
    expect(sent.email).toBe(newEmail);
    // Nothing changes until the code comes back.
    expect((await userRow(viewer.id)).email).toBe(viewer.email);
    const code = await lastCodeMailedTo(t, newEmail);

    expect(await confirmEmailChange(t.ctx, viewer, { code })).toEqual({ email: newEmail });
    expect(await userRow(viewer.id)).toMatchObject({ email: newEmail, verified: true });
    // The used code is deleted.
    const left = await t.ctx.db
      .select()
      .from(verificationCodes)
      .where(and(eq(verificationCodes.userId, viewer.id), eq(verificationCodes.purpose, "change_email")));
    expect(left).toHaveLength(0);

    // better-auth signs in with the new address, not the old one.
    const signedIn = await signIn(
      t.ctx,
      t.auth,
      { email: newEmail, password },
      { clientIp: null, headers: requestHeaders() },
    );
    expect(signedIn.userId).toBe(viewer.id);
    await expect(
      signIn(t.ctx, t.auth, { email: viewer.email, password }, { clientIp: null, headers: requestHeaders() }),
    ).rejects.toMatchObject({ code: "user-not-found" });
  });

  it("gives the spec's messages: required, invalid, not new, taken", async () => {
    const { viewer } = await student();
    const other = await student();
    const attempt = (email: string) => requestEmailChange(t.ctx, viewer, { email }, ou);
    await expect(attempt("")).rejects.toMatchObject({ message: "Email is required.", field: "email" });
    await expect(attempt("not-an-email")).rejects.toMatchObject({ message: "Invalid email address!" });
    await expect(attempt(viewer.email.toUpperCase())).rejects.toMatchObject({ message: "Enter a new email" });
    await expect(attempt(other.email)).rejects.toMatchObject({
      message: "That email is taken.",
      field: "email",
    });
  });

  it("refuses a wrong code with the spec's message and keeps the old address", async () => {
    const { viewer } = await student();
    const newEmail = uniqueEmail("moved");
    await requestEmailChange(t.ctx, viewer, { email: newEmail }, ou);
    const code = await lastCodeMailedTo(t, newEmail);
    await expect(
      confirmEmailChange(t.ctx, viewer, { code: code === "1234" ? "4321" : "1234" }),
    ).rejects.toMatchObject({ message: "Your code was incorrect. Please try again." });
    await expect(confirmEmailChange(t.ctx, viewer, { code: "" })).rejects.toMatchObject({
      message: "Please enter verification code",
    });
    expect((await userRow(viewer.id)).email).toBe(viewer.email);
  });

  it("refuses the code when another account took the address meanwhile", async () => {
    const { viewer } = await student();
    const newEmail = uniqueEmail("contested");
    await requestEmailChange(t.ctx, viewer, { email: newEmail }, ou);
    const code = await lastCodeMailedTo(t, newEmail);
    await createTestUser(t, { email: newEmail });
    await expect(confirmEmailChange(t.ctx, viewer, { code })).rejects.toMatchObject({
      message: "That email is taken.",
    });
    expect((await userRow(viewer.id)).email).toBe(viewer.email);
  });

  it("lets an unverified user fix a mistyped address: the code proves the new one", async () => {
    const { viewer } = await student({ verified: false });
    const newEmail = uniqueEmail("fixed");
    await requestEmailChange(t.ctx, viewer, { email: newEmail }, ou);
    await confirmEmailChange(t.ctx, viewer, { code: await lastCodeMailedTo(t, newEmail) });
    expect(await userRow(viewer.id)).toMatchObject({ email: newEmail, verified: true });
  });
});

describe("password change (spec 1 §5 'Password change', §8)", () => {
  const input = (current: string, next: string, again = next) => ({
    currentPassword: current,
    newPassword: next,
    confirmPassword: again,
  });

  async function signedIn(email: string, password: string): Promise<string> {
    const result = await signIn(
      t.ctx,
      t.auth,
      { email, password },
      { clientIp: null, headers: requestHeaders() },
    );
    return cookieFrom(result.headers);
  }

  it("gives the spec's messages in its order", async () => {
    const { viewer, cookie } = await student();
    const attempt = (value: ReturnType<typeof input>) =>
      changePassword(t.ctx, t.auth, viewer, value, requestHeaders({ cookie }));
    await expect(attempt(input("", "abcdef"))).rejects.toMatchObject({
      message: "Current password required",
    });
    await expect(attempt(input("secret123", ""))).rejects.toMatchObject({
      message: "Please enter a new password",
    });
    await expect(attempt(input("secret123", "abcdef", ""))).rejects.toMatchObject({
      message: "Must re-enter new password",
    });
    await expect(attempt(input("secret123", "abcdef", "abcdeg"))).rejects.toMatchObject({
      message: "Passwords do not match",
    });
    await expect(attempt(input("secret123", "abcde"))).rejects.toMatchObject({
      message: "Passwords must be 6+ characters",
    });
  });

  it("refuses a wrong current password with 'Invalid password.'", async () => {
    const { viewer, cookie, email, password } = await student();
    await expect(
      changePassword(t.ctx, t.auth, viewer, input("wrong-pass", "newpass1"), requestHeaders({ cookie })),
    ).rejects.toMatchObject({ message: "Invalid password.", field: "currentPassword" });
    // The old password still works.
    await signedIn(email, password);
  });

  it("sets the new password, keeps this session and ends the others", async () => {
    const { viewer, cookie, email, password } = await student();
    const otherDevice = await signedIn(email, password);
    const result = await changePassword(
      t.ctx,
      t.auth,
      viewer,
      input(password, "brand-new-1"),
      requestHeaders({ cookie }),
    );
    const freshCookie = cookieFrom(result.headers);
    expect(freshCookie).toContain("session_token");

    expect(await getViewerFromHeaders(t.ctx, t.auth, requestHeaders({ cookie: freshCookie }))).toMatchObject({
      id: viewer.id,
    });
    expect(await getViewerFromHeaders(t.ctx, t.auth, requestHeaders({ cookie: otherDevice }))).toBeNull();

    await signedIn(email, "brand-new-1");
    await expect(signedIn(email, password)).rejects.toMatchObject({ code: "wrong-password" });
  });

  it("locks password changes for 15 minutes after 5 wrong current passwords", async () => {
    const { viewer, cookie, password } = await student();
    const attempt = (current: string) =>
      changePassword(t.ctx, t.auth, viewer, input(current, "newpass12"), requestHeaders({ cookie }));
    for (let i = 1; i < 5; i++) {
      await expect(attempt(`wrong-${i}`)).rejects.toMatchObject({ message: "Invalid password." });
    }
    await expect(attempt("wrong-5")).rejects.toMatchObject({
      message: "Too many incorrect passwords. Try again in 15 minutes.",
    });
    // Even the right password waits.
    await expect(attempt(password)).rejects.toMatchObject({ code: "too-many-requests" });
    t.clock.advance(15 * 60_000);
    await attempt(password);
  });
});
