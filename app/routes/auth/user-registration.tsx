import { data, Link, redirect } from "react-router";
import { AuthCard, AuthLink } from "~/app/components/auth/auth-card";
import { GOOGLE_NOT_CONFIGURED, GoogleSignInButton } from "~/app/components/auth/google-button";
import { campusBrand, pageTitle } from "~/app/components/shell/campus";
import type { ShellHandle } from "~/app/components/shell/shell";
import { NoScriptMessage, useActionToast } from "~/app/components/ui/action-feedback";
import { buttonClass } from "~/app/components/ui/button";
import { MailIcon } from "~/app/components/ui/icons";
import { failureReply } from "~/app/lib/errors.server";
import { useRootData } from "~/app/lib/root-data";
import { redirectWithToast } from "~/app/lib/toast.server";
import { requireSignedOut } from "~/app/lib/viewer.server";
import type { AuthActionData } from "~/app/routes/auth/action.server";
import {
  GOOGLE_ERROR_PATH,
  GOOGLE_MESSAGES,
  googleErrorMessage,
  startGoogleSignIn,
} from "~/server/accounts/google";
import type { Route } from "./+types/user-registration";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export const handle = { shell: "bare" } satisfies ShellHandle;

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Join", matches[0]?.loaderData.campus) }];
}

/**
 * spec 1 §2 /user_registration: the auth landing page; signed-in users go to /home. A
 * Google sign-in that failed comes back here with `error` (spec 1 §8 'Google sign-in'):
 * shown as a danger toast on the page without the parameter.
 */
export async function loader(args: Route.LoaderArgs) {
  await requireSignedOut(args);
  const error = new URL(args.request.url).searchParams.get("error");
  if (error !== null) {
    throw await redirectWithToast(GOOGLE_ERROR_PATH, { message: googleErrorMessage(error), type: "danger" });
  }
  return null;
}

/**
 * 'Continue with Google' posts here (from this page and from the shell's sign-in menu), so
 * it works without JavaScript too: off to the provider, back through better-auth's callback.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { app, auth, campus } = context;
  // docs/contract.md: without GOOGLE_CLIENT_ID the button explains that Google sign-in is not configured.
  if (!app.config.googleClientId) {
    return data<AuthActionData>({ toast: { message: GOOGLE_NOT_CONFIGURED, type: "black" } });
  }
  try {
    const { url, headers } = await startGoogleSignIn(app, auth, {
      campusId: campus.id,
      headers: request.headers,
    });
    return redirect(url, { headers });
  } catch (error) {
    // The provider cannot be reached: 'Network error. Please check your connection'.
    return failureReply(app, error, {
      fallback: GOOGLE_MESSAGES.unknown,
      logMessage: "Google sign-in could not start",
    });
  }
}

export default function UserRegistration({ actionData }: Route.ComponentProps) {
  const { campus } = useRootData();
  useActionToast(actionData?.toast);
  return (
    <AuthCard
      title={`Join ${campusBrand(campus)}`}
      subtitle="Takes less than a few seconds."
      footer={
        <>
          Already have an account? <AuthLink to="/login">Log In</AuthLink>
        </>
      }
    >
      <NoScriptMessage toast={actionData?.toast} />
      <div className="flex flex-col gap-3">
        <GoogleSignInButton />
        <Link to="/register" className={buttonClass("primary", "w-full")}>
          <MailIcon className="size-[18px]" />
          Continue with Email
        </Link>
      </div>
      <p className="mt-6 text-center text-xs text-zinc-500">
        By continuing you agree to the{" "}
        <Link to="/settings/terms" className="underline">
          Terms of Service
        </Link>{" "}
        and{" "}
        <Link to="/settings/privacy" className="underline">
          Privacy Policy
        </Link>
        .
      </p>
    </AuthCard>
  );
}
