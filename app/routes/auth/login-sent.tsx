import { Form, redirect } from "react-router";
import { AuthCard, AuthLink } from "~/app/components/auth/auth-card";
import { pageTitle } from "~/app/components/shell/campus";
import type { ShellHandle } from "~/app/components/shell/shell";
import { NoScriptMessage, useActionToast, useSubmitting } from "~/app/components/ui/action-feedback";
import { Button } from "~/app/components/ui/button";
import { campusOriginOf } from "~/app/lib/campus-origin.server";
import { AREA_FAILURES, failureReply, listLoader } from "~/app/lib/errors.server";
import { resetOnceRedirects } from "~/app/lib/verification-redirect.server";
import { requireSignedOut } from "~/app/lib/viewer.server";
import { redirectToClaimLinkSent, redirectToLinkSent } from "~/app/routes/auth/magic-link.server";
import {
  completeMagicLink,
  requestClaimLink,
  requestSignInLink,
  requestSignUpLink,
} from "~/server/accounts/magic-link";
import type { Route } from "./+types/login-sent";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export const handle = { shell: "bare" } satisfies ShellHandle;

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Check your email", matches[0]?.loaderData.campus) }];
}

function linkParams(request: Request) {
  const params = new URL(request.url).searchParams;
  const first = params.get("first")?.trim() || null;
  const last = params.get("last")?.trim() || null;
  return {
    email: params.get("email")?.trim() ?? "",
    token: params.get("token") ?? "",
    first,
    last,
    registering: Boolean(first && last),
    // 'Claim this account' (decision 0126): the profile whose own address got the link.
    claim: params.get("claim")?.trim() || null,
  };
}

/**
 * spec 1 §2 /login/sent, the magic-link landing: needs `email` or, after 'Claim this account',
 * `claim` (the profile's username; decision 0126), else /login; signed-in
 * users go to /home. Opened from the mailed link (with its `token`) it completes the
 * sign-in, or the sign-up when the link carries first and last (spec 1 §4); a failed link
 * goes to /login?redirect=true, or /register?redirect=true when registering.
 */
export async function loader(args: Route.LoaderArgs) {
  const { request, context } = args;
  await requireSignedOut(args);
  const link = linkParams(request);
  if (!link.email && link.claim) return { email: null, claim: link.claim, registering: false };
  if (!link.email) throw redirect("/login");
  if (!link.token) return { email: link.email, claim: null, registering: link.registering };

  const { token, email, registering } = link;
  const failed = registering ? "/register?redirect=true" : "/login?redirect=true";
  await listLoader(
    context.app,
    async () => {
      const signedIn = await completeMagicLink(
        context.app,
        context.auth,
        { token, email },
        { campusId: context.campus.id, headers: request.headers },
      );
      // The e-mail is verified by the link itself, so nothing stands between the student and the feed.
      throw redirect("/home", { headers: await resetOnceRedirects(signedIn.headers) });
    },
    {
      // spec 1 §6: not a wrong link but a refused account, so 'Account has been banned' alone.
      elsewhere: (error) =>
        error.code !== "banned"
          ? null
          : registering
            ? "/register?method=noPassword"
            : "/login?method=noPassword",
      // Any other refusal, or a failure (logged), is a link that did not work: its form again.
      refused: (): never => {
        throw redirect(failed);
      },
      fallback: "",
      logMessage: "sign-in link could not be completed",
    },
  );
  // Every answer above is a redirect.
  throw redirect(failed);
}

/** 'Send a new link': the same link again, for the address (and names) or the claimed profile on the page. */
export async function action({ request, context }: Route.ActionArgs) {
  const link = linkParams(request);
  const options = {
    campus: context.campus,
    campusOrigin: campusOriginOf(request, context),
    clientIp: context.clientIp,
    headers: request.headers,
  };
  if (!link.email && link.claim) {
    try {
      const claimed = await requestClaimLink(context.app, context.auth, link.claim, options);
      return redirectToClaimLinkSent(claimed.username);
    } catch (error) {
      return failureReply(context.app, error, { ...AREA_FAILURES.signInLink });
    }
  }
  if (!link.email) throw redirect("/login");
  try {
    const sent =
      link.first && link.last
        ? await requestSignUpLink(
            context.app,
            context.auth,
            { fullName: `${link.first} ${link.last}`, email: link.email, terms: true },
            options,
          )
        : await requestSignInLink(context.app, context.auth, { email: link.email }, options);
    return redirectToLinkSent(sent);
  } catch (error) {
    return failureReply(context.app, error, { ...AREA_FAILURES.signInLink });
  }
}

export default function LoginSent({ loaderData, actionData }: Route.ComponentProps) {
  const submitting = useSubmitting();
  const toast = actionData?.toast;
  useActionToast(toast);
  return (
    <AuthCard
      title="Check your email"
      subtitle={
        loaderData.email === null ? (
          <p>
            We emailed a sign-in link to the address of the account{" "}
            <strong className="font-semibold break-all text-zinc-900">@{loaderData.claim}</strong>. Open it
            from that inbox to log in and claim the account.
          </p>
        ) : (
          <p>
            {loaderData.registering ? "Finish signing up" : "Log in"} with the link we email to{" "}
            <strong className="font-semibold break-all text-zinc-900">{loaderData.email}</strong>.
          </p>
        )
      }
      footer={
        loaderData.email === null ? (
          <>
            Not your account? <AuthLink to="/login">Log in</AuthLink>
          </>
        ) : loaderData.registering ? (
          <>
            Wrong address? <AuthLink to="/register?method=noPassword">Sign up again</AuthLink>
          </>
        ) : (
          <>
            Wrong address? <AuthLink to="/login?method=noPassword">Try another email</AuthLink>
          </>
        )
      }
    >
      <NoScriptMessage toast={toast} />
      <div role="status" className="flex flex-col gap-3 text-[15px] text-zinc-700">
        {/* spec 1 §4: magic-link e-mails may take 1 to 2 minutes. */}
        <p>The email may take 1 to 2 minutes to arrive. The link works once, for one hour.</p>
        <p>Can't find it? Check your spam folder, or send a new link.</p>
      </div>
      <Form method="post" className="mt-6">
        <Button type="submit" variant="secondary" className="w-full" processing={submitting}>
          Send a new link
        </Button>
      </Form>
    </AuthCard>
  );
}
