import { useEffect, useState } from "react";
import { data, Form, useFetcher, useNavigation } from "react-router";
import { z } from "zod";
import { SettingsPage } from "~/app/components/settings/settings-page";
import { pageTitle } from "~/app/components/shell/campus";
import { buttonClass } from "~/app/components/ui/button";
import { AREA_FAILURES, failureReply } from "~/app/lib/errors.server";
import { formFields, readForm, readIntent } from "~/app/lib/form.server";
import { currentPushSubscription, pushSupported, subscribeToPush, unsubscribeFromPush } from "~/app/lib/push";
import { redirectWithToast } from "~/app/lib/toast.server";
import { requireUser } from "~/app/lib/viewer.server";
import { ACCOUNT_UPDATED } from "~/app/routes/settings/account/account-action.server";
import { getEmailPreferences, updateEmailPreferences } from "~/server/notifications/notifications";
import { removePushSubscription, savePushSubscription } from "~/server/notifications/push";
import type { Route } from "./+types/notifications";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Notifications", matches[0]?.loaderData?.campus) }];
}

export async function loader(args: Route.LoaderArgs) {
  const viewer = await requireUser(args);
  const email = await getEmailPreferences(args.context.app, viewer);
  return { email, vapidPublicKey: args.context.app.config.vapid.publicKey };
}

const intents = z.enum(["save-email", "subscribe-push", "unsubscribe-push"]).default("save-email");

/** A checkbox's value as a form sends it: present ('on') or absent. */
const checked = (form: FormData, name: string) => formFields(form)[name] === "on";

export async function action(args: Route.ActionArgs) {
  const viewer = await requireUser(args);
  const app = args.context.app;
  const form = await readForm(args.request);
  const intent = readIntent(form, intents);
  try {
    if (intent === "save-email") {
      // spec 1 §3 email_notifications, and per kind beside it (decision 0251).
      await updateEmailPreferences(app, viewer, {
        enabled: checked(form, "enabled"),
        comments: checked(form, "comments"),
        saves: checked(form, "saves"),
        messages: checked(form, "messages"),
        priceDrops: checked(form, "priceDrops"),
      });
      return redirectWithToast("/settings/notifications", ACCOUNT_UPDATED);
    }
    if (intent === "subscribe-push") {
      let subscription: unknown = null;
      try {
        subscription = JSON.parse(String(formFields(form).subscription ?? "").slice(0, 4000));
      } catch {
        subscription = null;
      }
      await savePushSubscription(app, viewer, subscription);
      return data({ ok: true as const, intent });
    }
    await removePushSubscription(app, viewer, String(formFields(form).endpoint ?? ""));
    return data({ ok: true as const, intent });
  } catch (error) {
    return failureReply(app, error, { ...AREA_FAILURES.accountSettings, intent });
  }
}

function Toggle(props: { name: string; label: string; hint: string; defaultChecked: boolean }) {
  return (
    <label className="flex cursor-pointer items-start gap-3 rounded-lg px-2 py-2.5 hover:bg-zinc-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600">
      <input
        type="checkbox"
        name={props.name}
        defaultChecked={props.defaultChecked}
        className="mt-0.5 size-5 shrink-0 accent-brand-600"
      />
      <span className="leading-tight">
        <span className="block text-[15px] font-medium text-zinc-900">{props.label}</span>
        <span className="block text-sm text-zinc-500">{props.hint}</span>
      </span>
    </label>
  );
}

type PushState = "checking" | "unsupported" | "blocked" | "off" | "on";

/** Push in this browser: turned on only by this button (decision 0252: never on page load). */
function PushSetting({ vapidPublicKey }: { vapidPublicKey: string }) {
  const fetcher = useFetcher();
  const [state, setState] = useState<PushState>("checking");
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (!pushSupported()) {
      setState("unsupported");
      return;
    }
    if (Notification.permission === "denied") {
      setState("blocked");
      return;
    }
    void currentPushSubscription().then((subscription) => setState(subscription ? "on" : "off"));
  }, []);

  // Decision 0460: the server may refuse this browser's push service (a 400 with its words); the
  // browser's subscription then goes too, so the page never says 'on' for a push that never comes.
  const answer = fetcher.data as
    | { ok?: boolean; intent?: string; toast?: { message?: string } | null }
    | undefined;
  useEffect(() => {
    if (fetcher.state !== "idle" || answer?.intent !== "subscribe-push") return;
    if (answer.ok) {
      setState("on");
      return;
    }
    setProblem(answer.toast?.message ?? "Push notifications could not be turned on. Please try again.");
    void unsubscribeFromPush().finally(() => setState("off"));
  }, [fetcher.state, answer]);

  const turnOn = async () => {
    setProblem(null);
    try {
      const subscription = await subscribeToPush(vapidPublicKey);
      await fetcher.submit(
        { intent: "subscribe-push", subscription: JSON.stringify(subscription) },
        { method: "post" },
      );
    } catch (error) {
      if (error instanceof Error && error.message === "permission-denied") setState("blocked");
      else setProblem("Push notifications could not be turned on. Please try again.");
    }
  };
  const turnOff = async () => {
    setProblem(null);
    const endpoint = await unsubscribeFromPush();
    if (endpoint) await fetcher.submit({ intent: "unsubscribe-push", endpoint }, { method: "post" });
    setState("off");
  };

  return (
    <section
      aria-labelledby="push-title"
      data-vapid-public-key={vapidPublicKey}
      className="mt-8 border-t border-zinc-200 pt-6"
    >
      <h2 id="push-title" className="text-base font-bold text-zinc-900">
        Push notifications
      </h2>
      <p className="mt-1 text-sm text-zinc-600">
        Get a notification on this device for messages, comments and saves while the site is closed.
      </p>
      <p className="mt-3 text-sm text-zinc-800" data-push-state={state}>
        {state === "checking"
          ? "Checking this browser…"
          : state === "unsupported"
            ? "This browser does not support push notifications. On an iPhone, add the site to your Home Screen first."
            : state === "blocked"
              ? "Notifications are blocked for this site in your browser settings."
              : state === "on"
                ? "Push notifications are on for this browser."
                : "Push notifications are off for this browser."}
      </p>
      {problem ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {problem}
        </p>
      ) : null}
      {state === "off" ? (
        <button type="button" onClick={() => void turnOn()} className={buttonClass("primary", "mt-4")}>
          Turn On Push Notifications
        </button>
      ) : state === "on" ? (
        <button type="button" onClick={() => void turnOff()} className={buttonClass("secondary", "mt-4")}>
          Turn Off Push Notifications
        </button>
      ) : null}
    </section>
  );
}

/** /settings/notifications (decision 0251): e-mail per kind and push, linked from the account settings. */
export default function NotificationSettings({ loaderData }: Route.ComponentProps) {
  const { email } = loaderData;
  const navigation = useNavigation();
  const saving = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <SettingsPage title="Notifications" backTo="/settings/account">
      <Form method="post" className="flex flex-col gap-1">
        <input type="hidden" name="intent" value="save-email" />
        <h2 className="mb-1 text-base font-bold text-zinc-900">E-mail</h2>
        <Toggle
          name="enabled"
          label="Email notifications"
          hint="When you're away, one e-mail sums up what you missed. Turn off for none at all."
          defaultChecked={email.enabled}
        />
        <fieldset className="ml-8 flex flex-col gap-0.5">
          <legend className="sr-only">E-mail me about</legend>
          <Toggle
            name="comments"
            label="Comments"
            hint="Comments on your posts and replies to your comments"
            defaultChecked={email.comments}
          />
          <Toggle
            name="saves"
            label="Saves"
            hint="Someone saved your post, a post you saved is available again, or a saved search has a new match (at most one e-mail an hour per search)"
            defaultChecked={email.saves}
          />
          <Toggle
            name="messages"
            label="Messages"
            hint="New messages and conversations"
            defaultChecked={email.messages}
          />
          {/* Decision 0640: a kind of its own. */}
          <Toggle
            name="priceDrops"
            label="Price drops"
            hint="A listing you saved is now cheaper"
            defaultChecked={email.priceDrops}
          />
        </fieldset>
        <button type="submit" disabled={saving} className={buttonClass("primary", "mt-4 self-start")}>
          {saving ? "Saving…" : "Save"}
        </button>
      </Form>
      <PushSetting vapidPublicKey={loaderData.vapidPublicKey} />
    </SettingsPage>
  );
}
