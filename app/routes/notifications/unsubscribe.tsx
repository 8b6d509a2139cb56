import { data, Form, Link, useNavigation } from "react-router";
import { pageTitle } from "~/app/components/shell/campus";
import { buttonClass } from "~/app/components/ui/button";
import { formFields, readForm } from "~/app/lib/form.server";
import { unsubscribeFromNotificationEmails, verifyUnsubscribeToken } from "~/server/notifications/email";
import type { Route } from "./+types/unsubscribe";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export const UNSUBSCRIBE_MESSAGES = {
  invalid: "This link is not valid. You can turn notification e-mails off in your notification settings.",
  done: "You won't get notification e-mails any more.",
} as const;

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Notification e-mails", matches[0]?.loaderData?.campus) }];
}

/**
 * The page an e-mail's 'Turn off notification e-mails' link opens (decision 0251).
 * Opening it changes nothing — mail scanners follow links — it asks to confirm with a button.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  // Decision 0461: an old, expired, rotated or other-kind link shows the invalid text, never an error.
  const valid = (await verifyUnsubscribeToken(context.app, token, "notifications")) !== null;
  return data({ token, valid }, { status: valid ? 200 : 400 });
}

/**
 * The confirm button, and RFC 8058's one-click POST (body 'List-Unsubscribe=One-Click', the token
 * in the address the List-Unsubscribe header names). Signed token, no session needed.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const token = String(formFields(form).token ?? new URL(request.url).searchParams.get("token") ?? "");
  const done = await unsubscribeFromNotificationEmails(context.app, token);
  return data({ done }, { status: done ? 200 : 400 });
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const done = actionData?.done === true;
  const invalid = !loaderData.valid || actionData?.done === false;
  return (
    <section
      aria-labelledby="unsubscribe-title"
      className="mx-auto mt-4 max-w-md rounded-2xl border border-zinc-200 bg-white px-6 py-10 text-center md:mt-8"
    >
      <h1 id="unsubscribe-title" className="text-xl font-bold tracking-tight text-zinc-900">
        {done ? "E-mails turned off" : "Turn off notification e-mails?"}
      </h1>
      {done ? (
        <p role="status" className="mt-3 text-[15px] text-zinc-700">
          {UNSUBSCRIBE_MESSAGES.done}
        </p>
      ) : invalid ? (
        <p role="alert" className="mt-3 text-[15px] text-zinc-700">
          {UNSUBSCRIBE_MESSAGES.invalid}
        </p>
      ) : (
        <>
          <p className="mt-3 text-[15px] text-zinc-700">
            You'll stop getting e-mails about comments, saves and messages. You'll still see them on the site.
          </p>
          <Form method="post" className="mt-6">
            <input type="hidden" name="token" value={loaderData.token} />
            <button type="submit" disabled={navigation.state !== "idle"} className={buttonClass("primary")}>
              Turn Off E-mails
            </button>
          </Form>
        </>
      )}
      <Link
        to="/settings/notifications"
        className="mt-6 block text-sm font-semibold text-brand-700 hover:underline"
      >
        Notification settings
      </Link>
    </section>
  );
}
