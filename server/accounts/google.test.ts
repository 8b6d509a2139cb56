import { APIError } from "better-auth/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestUser, requestHeaders } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { isPublicAuthPath } from "./auth";
import { BANNED_AUTH_CODE } from "./errors.shared";
import {
  GOOGLE_MESSAGES,
  googleErrorMessage,
  googleProviderConfig,
  googleUserFields,
  isGoogleSignUp,
  startGoogleSignIn,
} from "./google";
import { namesFromDisplayName, splitDisplayName } from "./names.shared";

describe("names from a Google display name (spec 1 §5 'Sign-up from Google')", () => {
  it.each([
    // split on space, period, comma and hyphen; the middle words are the middle name
    ["Taylor Q. Brooks-Smith", "Taylor", "Q Brooks", "Smith"],
    ["Dr. Jean-Luc Picard 3rd", "Dr", "Jean Luc", "Picard"],
    ["Mary Ann O'Neil", "Mary", "Ann", "O'Neil"],
    ["Smith, John", "Smith", null, "John"],
    ["jane doe", "jane", null, "doe"],
    ["José  Álvarez-Ruiz", "José", "Álvarez", "Ruiz"],
    // words with digits are dropped
    ["R2D2 Skywalker", "Skywalker", null, "user"],
    ["Agent 007 Bond", "Agent", null, "Bond"],
    ["123 456", "anonymous", null, "user"],
    // one word: the last name defaults to 'user'; none: both default
    ["x", "x", null, "user"],
    ["Cher", "Cher", null, "user"],
    ["", "anonymous", null, "user"],
    ["   ", "anonymous", null, "user"],
    [" - . , ", "anonymous", null, "user"],
    // characters other than letters and apostrophes are removed from the words (decision 0060)
    ["(Sam) Lee!", "Sam", null, "Lee"],
    ["🎉 Party", "Party", null, "user"],
  ])("%j → first %j, middle %j, last %j", (displayName, first, middle, last) => {
    expect(splitDisplayName(displayName)).toEqual({ first, middle, last });
  });

  it("treats a missing display name as empty", () => {
    expect(splitDisplayName(null)).toEqual({ first: "anonymous", middle: null, last: "user" });
    expect(splitDisplayName(undefined)).toEqual({ first: "anonymous", middle: null, last: "user" });
  });

  it.each([
    ["Taylor Q. Brooks-Smith", "Taylor", "S."],
    ["Dr. Jean-Luc Picard 3rd", "Dr", "P."],
    ["Mary Ann O'Neil", "Mary", "O."],
    ["x", "X", "U."],
    ["", "Anonymous", "U."],
    ["MARÍA JOSÉ", "María", "J."],
    // spec 1 §9: names are at most 20 characters.
    ["Wolfeschlegelsteinhausenbergerdorff Smith", "Wolfeschlegelsteinha", "S."],
  ])("%j is stored as %j %j (spec 1 §3)", (displayName, firstName, lastName) => {
    expect(namesFromDisplayName(displayName)).toEqual({ firstName, lastName });
  });
});

describe("Google sign-in errors (spec 1 §8 'Google sign-in')", () => {
  it.each([
    ["access_denied", "Error: Sign-in process was canceled"],
    ["account_not_linked", "Error: Account already exists with different credentials"],
    ["invalid_code", "Error: Invalid credentials"],
    ["state_mismatch", "Error: Invalid credentials"],
    ["email_not_found", "Error: User email not found"],
    ["oauth_provider_not_found", "Network error. Please check your connection"],
    [BANNED_AUTH_CODE, "Account has been banned"],
    ["unable_to_create_user", "Error Signing In with Google."],
    ["unable_to_create_session", "Error Signing In with Google."],
    ["server_error", "Unknown Error Signing In with Google"],
    ["temporarily_unavailable", "Unknown Error Signing In with Google"],
    ["toString", "Unknown Error Signing In with Google"],
    ["", "Unknown Error Signing In with Google"],
  ])("%j → %j", (code, message) => {
    expect(googleErrorMessage(code)).toBe(message);
  });
});

describe("Google accounts against the database", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({
      googleClientId: "test-client",
      googleClientSecret: "test-secret",
      // Nothing listens here: discovery fails and better-auth keeps retrying on each request.
      googleIssuer: "http://127.0.0.1:9",
    });
    t.clock.set(new Date());
  });
  afterAll(() => t.close());

  it("maps a profile to our columns: names per §5, a free username, the default campus outside a flow", async () => {
    const config = googleProviderConfig(t.ctx);
    expect(config).toMatchObject({
      providerId: "google",
      discoveryUrl: "http://127.0.0.1:9/.well-known/openid-configuration",
      clientId: "test-client",
      scopes: ["openid", "email", "profile"],
    });
    const mapped = await config?.mapProfileToUser?.({
      sub: "1234",
      name: "Taylor Q. Brooks-Smith",
      email: "taylor@example.com",
      emailVerified: true,
      image: "https://example.com/me.png",
    });
    expect(mapped).toEqual({
      name: "Taylor S.",
      firstName: "Taylor",
      lastName: "S.",
      username: "taylors",
      campusId: "ou",
      image: undefined,
    });
    expect(await isGoogleSignUp()).toBe(false);
  });

  it("never maps a profile to a reserved username: 'Setting S' becomes settings-2 (decision 0125)", async () => {
    expect((await googleUserFields(t.ctx.db, "Setting S", "ut")).username).toBe("settings-2");
    expect((await googleUserFields(t.ctx.db, "Pos T", "ut")).username).toBe("post-2");
  });

  it("appends -2, -3 … while the username is taken", async () => {
    await createTestUser(t, { fullName: "Jordan Kim" });
    expect((await googleUserFields(t.ctx.db, "Jordan Kim", "ut")).username).toBe("jordank-2");
    await createTestUser(t, { fullName: "Jordan Kim" });
    expect(await googleUserFields(t.ctx.db, "Jordan-Q. Kim", "ut")).toMatchObject({
      firstName: "Jordan",
      lastName: "K.",
      username: "jordank-3",
      campusId: "ut",
    });
  });

  it("refuses to start without GOOGLE_CLIENT_ID", async () => {
    const unconfigured = { ...t.ctx, config: { ...t.ctx.config, googleClientId: null } };
    expect(googleProviderConfig(unconfigured)).toBeNull();
    await expect(
      startGoogleSignIn(unconfigured, t.auth, { campusId: "ou", headers: requestHeaders() }),
    ).rejects.toThrow(/GOOGLE_CLIENT_ID/);
  });

  it("answers 'Network error. Please check your connection' while the provider cannot be reached", async () => {
    await expect(
      startGoogleSignIn(t.ctx, t.auth, { campusId: "ou", headers: requestHeaders() }),
    ).rejects.toMatchObject({
      code: "google-unavailable",
      message: "Network error. Please check your connection",
    });
  });

  it("refuses to open a session for a banned account, whatever the sign-in path (spec 1 §6)", async () => {
    const banned = await createTestUser(t, { verified: true, banned: true });
    // Straight to better-auth, past our domain functions: the session hook still refuses.
    const attempt = t.auth.api.signInEmail({
      body: { email: banned.email, password: banned.password },
      headers: requestHeaders(),
    });
    await expect(attempt).rejects.toBeInstanceOf(APIError);
    await expect(attempt).rejects.toMatchObject({
      body: { code: BANNED_AUTH_CODE, message: "Account has been banned" },
    });
    expect(googleErrorMessage(BANNED_AUTH_CODE)).toBe(GOOGLE_MESSAGES.banned);
  });

  it("exposes only Google's callback, not the sign-in endpoint", () => {
    expect(isPublicAuthPath("/callback/google")).toBe(true);
    expect(isPublicAuthPath("/sign-in/social")).toBe(false);
    expect(isPublicAuthPath("/callback/github")).toBe(false);
  });
});
