import { afterEach, vi } from "vitest";

// docs/architecture.md rule 10: a stray console.error fails the test.
let errors: unknown[][] = [];
const original = console.error;

vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
  errors.push(args);
  original(...args);
});

afterEach(() => {
  const seen = errors;
  errors = [];
  if (seen.length > 0) {
    throw new Error(
      `console.error was called during the test:\n${seen.map((a) => a.map(String).join(" ")).join("\n")}`,
    );
  }
});
