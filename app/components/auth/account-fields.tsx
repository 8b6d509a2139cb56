import { ConformField, type ConformFieldMeta } from "~/app/components/ui/field";
import { MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH } from "~/server/accounts/schemas.shared";

/**
 * The e-mail input of the account forms (sign-in, sign-up, forgotten password): labelled
 * 'Email', the e-mail keyboard and autofill, and the longest address SMTP allows.
 */
export function EmailField({ meta }: { meta: ConformFieldMeta }) {
  return (
    <ConformField
      meta={meta}
      label="Email"
      type="email"
      autoComplete="email"
      inputMode="email"
      maxLength={MAX_EMAIL_LENGTH}
    />
  );
}

/**
 * A password input of the account forms (spec 1 §9: at most 30 characters). `autoComplete` tells
 * the browser's password manager whether it is the current password or a new one.
 */
export function PasswordField({
  meta,
  label,
  autoComplete,
  hint,
}: {
  meta: ConformFieldMeta;
  label: string;
  autoComplete: "current-password" | "new-password";
  hint?: string;
}) {
  return (
    <ConformField
      meta={meta}
      label={label}
      type="password"
      autoComplete={autoComplete}
      maxLength={MAX_PASSWORD_LENGTH}
      hint={hint}
    />
  );
}
