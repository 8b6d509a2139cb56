import { getFormProps } from "@conform-to/react";
import { data, Form } from "react-router";
import { z } from "zod";
import { formatCalendarDate } from "~/app/components/settings/account-rows";
import { SettingsPage } from "~/app/components/settings/settings-page";
import { pageTitle } from "~/app/components/shell/campus";
import { NoScriptMessage, useActionToast, useSubmitting } from "~/app/components/ui/action-feedback";
import { Button } from "~/app/components/ui/button";
import { ConformField, useSchemaForm } from "~/app/components/ui/field";
import { failureReply, submitForm } from "~/app/lib/errors.server";
import { readForm, readIntent } from "~/app/lib/form.server";
import { redirectWithToast } from "~/app/lib/toast.server";
import { requireUser } from "~/app/lib/viewer.server";
import { signOut } from "~/server/accounts/accounts";
import { MAX_PASSWORD_LENGTH } from "~/server/accounts/schemas.shared";
import { deleteAccount, hasPassword, requestDeletionCode } from "~/server/privacy/deletion";
import { getDataExportState, requestDataExport } from "~/server/privacy/export";
import { PRIVACY_MESSAGES } from "~/server/privacy/messages.shared";
import { deleteAccountSchema } from "~/server/privacy/schemas.shared";
import type { Route } from "./+types/data";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Your data", matches[0]?.loaderData?.campus) }];
}

const PAGE = "/settings/account/data";
const FAILURES = { fallback: PRIVACY_MESSAGES.somethingWentWrong, logMessage: "data page action failed" };
const intents = z.enum(["request-export", "send-code", "delete-account"]);

/** Decisions 0570 and 0571: the archive's state and how the account confirms a deletion. */
export async function loader(args: Route.LoaderArgs) {
  const viewer = await requireUser(args);
  const app = args.context.app;
  const state = await getDataExportState(app, viewer);
  return data({
    export: {
      status: state.status,
      requestedOn: state.requestedAt ? formatCalendarDate(state.requestedAt) : null,
      expiresOn: state.expiresAt ? formatCalendarDate(state.expiresAt) : null,
      nextOn: state.nextRequestAt ? formatCalendarDate(state.nextRequestAt) : null,
    },
    withPassword: await hasPassword(app, viewer.id),
    email: viewer.email,
  });
}

export async function action(args: Route.ActionArgs) {
  const viewer = await requireUser(args);
  const { app, auth, campus } = args.context;
  const form = await readForm(args.request);
  const intent = readIntent(form, intents);
  if (intent === "delete-account") {
    return submitForm(
      app,
      form,
      deleteAccountSchema,
      async (value) => {
        await deleteAccount(app, auth, viewer, value, args.request.headers);
        // The sessions are gone; this browser's cookie is cleared too.
        const headers = await signOut(auth, args.request.headers).catch(() => new Headers());
        return redirectWithToast(
          "/home",
          { message: PRIVACY_MESSAGES.accountDeleted, type: "success" },
          { headers },
        );
      },
      { failures: FAILURES, inlineFields: ["password", "code", "confirm"], hideFields: ["password"] },
    );
  }
  try {
    if (intent === "request-export") {
      await requestDataExport(app, viewer);
      return redirectWithToast(PAGE, { message: PRIVACY_MESSAGES.exportRequested, type: "success" });
    }
    await requestDeletionCode(app, viewer, campus);
    return redirectWithToast(PAGE, { message: PRIVACY_MESSAGES.codeSent, type: "success" });
  } catch (error) {
    return failureReply(app, error, { ...FAILURES, intent });
  }
}

function exportLine(state: Route.ComponentProps["loaderData"]["export"]): string {
  switch (state.status) {
    case "pending":
      return PRIVACY_MESSAGES.exportPending;
    case "ready":
      return `Your archive is ready: we e-mailed you a link. It works once, until ${state.expiresOn}.`;
    case "downloaded":
      return `You downloaded the archive you asked for on ${state.requestedOn}.`;
    case "expired":
      return `The link to the archive you asked for on ${state.requestedOn} has expired.`;
    case "failed":
      return "We couldn't prepare your archive. Please ask again.";
    default:
      return "";
  }
}

/** /settings/account/data (decisions 0570, 0571): Download my data, and Delete my account. */
export default function YourData({ loaderData, actionData }: Route.ComponentProps) {
  const toast = actionData && "toast" in actionData ? actionData.toast : null;
  useActionToast(toast);
  const requesting = useSubmitting("request-export");
  const sendingCode = useSubmitting("send-code");
  const state = loaderData.export;
  const line = exportLine(state);
  const blocked = state.status === "pending" || state.nextOn !== null;
  return (
    <SettingsPage title="Your data" backTo="/settings/account">
      <NoScriptMessage toast={toast} />
      <section aria-labelledby="download-heading" className="flex flex-col gap-3">
        <h2 id="download-heading" className="text-lg font-bold text-zinc-900">
          Download my data
        </h2>
        <p className="text-[15px] text-zinc-700">
          Get a copy of everything we keep about you: your profile and settings, posts and comments with their
          photos and videos, saves, searches, messages, notifications, ads and payments. We prepare a ZIP file
          and e-mail a link to {loaderData.email}. The link works once, for 7 days, and only when you're
          signed in.
        </p>
        <p aria-live="polite" className="text-[15px] font-medium text-zinc-900">
          {line}
        </p>
        <Form method="post">
          <input type="hidden" name="intent" value="request-export" />
          <Button type="submit" processing={requesting} disabled={blocked}>
            Download my data
          </Button>
        </Form>
        {state.nextOn && state.status !== "pending" ? (
          <p className="text-sm text-zinc-600">You can ask for a new archive on {state.nextOn}.</p>
        ) : null}
      </section>

      <section
        aria-labelledby="delete-heading"
        className="mt-10 flex flex-col gap-3 border-t border-zinc-200 pt-6"
      >
        <h2 id="delete-heading" className="text-lg font-bold text-red-700">
          Delete my account
        </h2>
        <p className="text-[15px] text-zinc-700">This can't be undone. Deleting your account:</p>
        <ul className="list-disc space-y-1 pl-5 text-[15px] text-zinc-700">
          <li>deletes your profile, posts, comments, photos and videos, saves and searches;</li>
          <li>signs you out everywhere;</li>
          <li>stops your running ads and refunds their unused days;</li>
          <li>
            keeps the messages you sent in the other person's conversation, shown from 'Deleted account';
          </li>
          <li>keeps payment records, without your name, as the law asks of financial records.</li>
        </ul>
        <p className="text-[15px] text-zinc-700">
          Your username and e-mail address can be used again after 30 days. Want a copy first? Download your
          data above.
        </p>
        <DeleteForm
          withPassword={loaderData.withPassword}
          lastResult={actionData && "result" in actionData ? actionData.result : undefined}
          sendingCode={sendingCode}
        />
      </section>
    </SettingsPage>
  );
}

function DeleteForm(props: {
  withPassword: boolean;
  lastResult: Parameters<typeof useSchemaForm>[1]["lastResult"];
  sendingCode: boolean;
}) {
  const [form, fields] = useSchemaForm(deleteAccountSchema, {
    id: "delete-account",
    lastResult: props.lastResult,
    validate: "onSubmit",
  });
  const deleting = useSubmitting("delete-account");
  const confirmError = fields.confirm.errors?.[0];
  return (
    <>
      {props.withPassword ? null : (
        <Form method="post" className="flex flex-col gap-2">
          <p className="text-[15px] text-zinc-700">
            Your account has no password, so we confirm with a 4-digit code sent to your e-mail.
          </p>
          <input type="hidden" name="intent" value="send-code" />
          <Button type="submit" variant="secondary" processing={props.sendingCode} className="self-start">
            E-mail me a code
          </Button>
        </Form>
      )}
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-3">
        <input type="hidden" name="intent" value="delete-account" />
        {props.withPassword ? (
          <ConformField
            meta={fields.password}
            label="Your password"
            type="password"
            autoComplete="current-password"
            maxLength={MAX_PASSWORD_LENGTH}
          />
        ) : (
          <ConformField
            meta={fields.code}
            label="4-digit code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={4}
          />
        )}
        <div className="flex flex-col gap-1">
          <label className="flex items-start gap-3 text-[15px] text-zinc-800">
            <input
              type="checkbox"
              name={fields.confirm.name}
              id={fields.confirm.id}
              aria-invalid={confirmError ? true : undefined}
              aria-describedby={confirmError ? `${fields.confirm.id}-error` : undefined}
              className="mt-0.5 size-5 shrink-0 accent-red-700"
            />
            I understand that my account and what I posted will be deleted for good.
          </label>
          {confirmError ? (
            <p id={`${fields.confirm.id}-error`} className="text-sm text-red-600">
              {confirmError}
            </p>
          ) : null}
        </div>
        <Button type="submit" variant="danger" processing={deleting} className="self-start">
          Delete my account
        </Button>
      </Form>
    </>
  );
}
