import { Form } from "react-router";
import { useSubmitting } from "~/app/components/ui/action-feedback";
import { Button } from "~/app/components/ui/button";
import { useToast } from "~/app/components/ui/toaster";
import { useRootData } from "~/app/lib/root-data";
import { GoogleIcon } from "./google-icon";

/** docs/contract.md: without GOOGLE_CLIENT_ID the Google button explains that Google sign-in is not configured. */
export const GOOGLE_NOT_CONFIGURED = "Google sign-in is not configured on this server.";

/** What every screen where a user signs in calls the Google method (spec 1 §2). */
export const GOOGLE_BUTTON_LABEL = "Continue with Google";

/**
 * 'Continue with Google' wherever a user signs in: /user_registration, /login, /register and the
 * sign-in modal (decision 0061). A form posting to the auth landing's action, which starts Google
 * sign-in (decision 0061), so it works before scripts load. Without GOOGLE_CLIENT_ID the button
 * explains that Google sign-in is not configured (docs/contract.md): a toast at once with scripts, the
 * landing's answer without.
 */
export function GoogleSignInButton({ className = "w-full" }: { className?: string }) {
  const { googleConfigured } = useRootData();
  const toast = useToast();
  const submitting = useSubmitting("sign-in-google");
  return (
    <Form
      method="post"
      action="/user_registration"
      onSubmit={(event) => {
        if (googleConfigured) return;
        event.preventDefault();
        toast.show({ message: GOOGLE_NOT_CONFIGURED, type: "black" });
      }}
    >
      <Button
        type="submit"
        name="intent"
        value="sign-in-google"
        variant="secondary"
        className={className}
        processing={submitting}
      >
        <GoogleIcon />
        {GOOGLE_BUTTON_LABEL}
      </Button>
    </Form>
  );
}

/** The Google button above an e-mail form, with the 'or' between them (/login, /register). */
export function GoogleSignInOr() {
  return (
    <div className="mb-5">
      <GoogleSignInButton />
      <p className="mt-5 flex items-center gap-3 text-xs font-medium tracking-wide text-zinc-500 uppercase before:h-px before:flex-1 before:bg-zinc-200 after:h-px after:flex-1 after:bg-zinc-200">
        or
      </p>
    </div>
  );
}
