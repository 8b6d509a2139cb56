import { Form, Link, redirect } from "react-router";
import { AuthCard } from "~/app/components/auth/auth-card";
import { pageTitle } from "~/app/components/shell/campus";
import type { ShellHandle } from "~/app/components/shell/shell";
import { useSubmitting } from "~/app/components/ui/action-feedback";
import { Button, buttonClass } from "~/app/components/ui/button";
import { resetOnceRedirects } from "~/app/lib/verification-redirect.server";
import { requireUser } from "~/app/lib/viewer.server";
import { signOut } from "~/server/accounts/accounts";
import type { Route } from "./+types/logout";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export const handle = { shell: "bare" } satisfies ShellHandle;

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Log out", matches[0]?.loaderData.campus) }];
}

/** spec 1 §2 /logout (protected): the layout sends visitors to /. */
export async function action(args: Route.ActionArgs) {
  await requireUser(args);
  const headers = await signOut(args.context.auth, args.request.headers);
  return redirect("/home", { headers: await resetOnceRedirects(headers) });
}

export default function Logout() {
  const submitting = useSubmitting();
  return (
    <AuthCard title="Are you sure you want to logout?">
      <Form method="post" className="flex flex-col gap-3 xs:flex-row-reverse">
        <Button type="submit" className="w-full xs:flex-1" processing={submitting}>
          Log out
        </Button>
        <Link to="/home" className={buttonClass("secondary", "w-full xs:flex-1")}>
          Cancel
        </Link>
      </Form>
    </AuthCard>
  );
}
