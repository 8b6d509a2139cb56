// Sign Up stays disabled until the form is complete (spec 1 §5 'Register'); the page says
// why next to it rather than leaving a student to guess that the terms box is the missing piece.

const FIELD_WORDS: Record<string, string> = {
  fullName: "your full name",
  email: "your email",
  password: "a password",
};

function list(words: string[]): string {
  return words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

/**
 * What still stands between the student and the sign-up button, from the names of the required
 * fields left empty (`terms` is the unticked box); null when nothing does.
 */
export function signUpBlockedReason(empty: readonly string[], byLink: boolean): string | null {
  const fields = empty.filter((name) => name !== "terms").map((name) => FIELD_WORDS[name] ?? name);
  const steps = [
    ...(fields.length > 0 ? [`fill in ${list(fields)}`] : []),
    ...(empty.includes("terms") ? ["tick the box to agree to the Terms of Service and Privacy Policy"] : []),
  ];
  if (steps.length === 0) return null;
  return `${byLink ? "To get your sign-up link" : "To sign up"}, ${steps.join(" and ")}.`;
}
