import { redirect } from "react-router";
import { AuthCard, AuthLink } from "~/app/components/auth/auth-card";
import { CodeForm } from "~/app/components/auth/code-form";
import { pageTitle } from "~/app/components/shell/campus";
import type { ShellHandle } from "~/app/components/shell/shell";
import { AREA_FAILURES } from "~/app/lib/errors.server";
import { readForm } from "~/app/lib/form.server";
import { redirectWithToast } from "~/app/lib/toast.server";
import { getViewer } from "~/app/lib/viewer.server";
import { answerCodeForm } from "~/app/routes/auth/action.server";
import { issueEmailCode, verifyEmailCode } from "~/server/accounts/codes";
import type { Route } from "./+types/verify";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export const handle = { shell: "bare" } satisfies ShellHandle;

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Verify your email", matches[0]?.loaderData.campus) }];
}

/** spec 1 §2 /verify: visitors go to /user_registration; verified users to /home. */
async function requireUnverifiedViewer(args: Route.LoaderArgs | Route.ActionArgs) {
  const viewer = await getViewer(args);
  if (!viewer) throw redirect("/user_registration");
  if (viewer.verified) throw redirect("/home");
  return viewer;
}

export async function loader(args: Route.LoaderArgs) {
  const viewer = await requireUnverifiedViewer(args);
  return { email: viewer.email };
}

/** The page's two forms: Verify (also what a form without an intent means) and 'Send a new code'. */
const VERIFY_INTENTS = { verify: "verify-code", resend: "resend-code" };

export async function action(args: Route.ActionArgs) {
  const viewer = await requireUnverifiedViewer(args);
  const { context } = args;
  return answerCodeForm(context.app, await readForm(args.request), {
    intents: VERIFY_INTENTS,
    failures: AREA_FAILURES.account,
    resend: () => issueEmailCode(context.app, viewer.id, context.campus),
    verify: async ({ code }) => {
      await verifyEmailCode(context.app, viewer.id, code);
      return redirectWithToast("/home", { message: "Your email is verified.", type: "success" });
    },
  });
}

export default function Verify({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <AuthCard
      title="Verify your email"
      subtitle={
        <>
          <p>
            We sent a 4-digit code to{" "}
            <strong className="font-semibold text-zinc-900">{loaderData.email}</strong>.
          </p>
          <p className="mt-1">Codes expire after two hours.</p>
        </>
      }
      footer={
        <>
          Wrong address? <AuthLink to="/logout">Log out</AuthLink>
        </>
      }
    >
      <CodeForm
        actionData={actionData}
        label="Verification code"
        resendLabel="Send a new code"
        intents={VERIFY_INTENTS}
      />
      <p className="mt-4 text-center text-xs text-zinc-500">Emails can take a minute or two to arrive.</p>
    </AuthCard>
  );
}
