import { describe, expect, it } from "vitest";
import { fullNameProblem, normaliseNames, usernameBase } from "./names.shared";
import { MESSAGES, registerSchema } from "./schemas.shared";

describe("full name rules (spec 1 §5)", () => {
  it.each([
    ["", "Full name is required"],
    ["   ", "Full name is required"],
    ["Olivia", "Full name is required"],
    ["O Smith", "Name is Invalid"],
    ["Olivia Sm1th", "Your Name is Invalid."],
    ["Olivia-Rose Smith", "Your Name is Invalid."],
    ["Olivia <b>", "Your Name is Invalid."],
    ["Abcdefghijklmnopqrstu Smith", "First and last name must be 20 characters or fewer."],
    ["Olivia Abcdefghijklmnopqrstu", "First and last name must be 20 characters or fewer."],
  ])("%j → %s", (input, message) => {
    expect(fullNameProblem(input)).toBe(message);
  });

  it.each(["Olivia Smith", "olivia mary smith", "Zoë O'Brien", "  Jo   Li  ", "Abcdefghijklmnopqrst Smith"])(
    "accepts %j",
    (input) => {
      expect(fullNameProblem(input)).toBeNull();
    },
  );
});

describe("name normalisation (spec 1 §3)", () => {
  it.each([
    ["olivia smith", "Olivia", "S."],
    ["OLIVIA SMITH", "Olivia", "S."],
    ["marcus de jong", "Marcus", "J."],
    ["zoë o'brien", "Zoë", "O."],
    ["o'neil 'tis", "O'neil", "T."],
    ["  priya   kumar ", "Priya", "K."],
  ])("%j → %s %s", (input, firstName, lastName) => {
    expect(normaliseNames(input)).toEqual({ firstName, lastName });
  });

  it("builds the username from the first name and the stored initial, lower case, alphanumerics only", () => {
    expect(usernameBase("Olivia", "S.")).toBe("olivias");
    expect(usernameBase("O'neil", "T.")).toBe("oneilt");
    expect(usernameBase("Zoë", "O.")).toBe("zoeo");
    expect(usernameBase("Ωμέγα", "Ψ.")).toBe("user");
  });
});

describe("form schemas", () => {
  const valid = { fullName: "Olivia Smith", email: "Olivia@Example.EDU", password: "secret1", terms: true };

  it("accepts a good sign-up and lower-cases the e-mail", () => {
    const parsed = registerSchema.parse(valid);
    expect(parsed.email).toBe("olivia@example.edu");
  });

  it.each([
    [{ email: "" }, "email", "Email is required."],
    [{ email: undefined }, "email", "Email is required."],
    [{ email: "olivia" }, "email", "Invalid email address!"],
    [{ email: "olivia@example" }, "email", "Invalid email address!"],
    [{ email: "olivia@example.c" }, "email", "Invalid email address!"],
    [{ email: "oli via@example.com" }, "email", "Invalid email address!"],
    [{ password: "" }, "password", "Password is required."],
    [{ password: "12345" }, "password", "Password too short."],
    [{ password: "x".repeat(31) }, "password", MESSAGES.passwordTooLong],
    [{ terms: false }, "terms", MESSAGES.termsRequired],
    [{ fullName: "Olivia" }, "fullName", "Full name is required"],
  ])("%j → %s: %s", (change, field, message) => {
    const result = registerSchema.safeParse({ ...valid, ...change });
    expect(result.success).toBe(false);
    const first = result.error?.issues.find((issue) => issue.path[0] === field);
    expect(first?.message).toBe(message);
  });
});
