import { AccountFormError, SettingsForm, useAccountForm } from "~/app/components/settings/account-form";
import { pageTitle } from "~/app/components/shell/campus";
import { redirectWithToast } from "~/app/lib/toast.server";
import { requireUser } from "~/app/lib/viewer.server";
import { ACCOUNT_UPDATED, submitAccountForm } from "~/app/routes/settings/account/account-action.server";
import { getMessagePolicy, setMessagePolicy } from "~/server/chats/requests";
import {
  MESSAGE_POLICIES,
  MESSAGE_POLICY_LABELS,
  messagePolicySchema,
  REQUEST_MESSAGES,
} from "~/server/chats/requests.shared";
import type { Route } from "./+types/messages";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(REQUEST_MESSAGES.settingTitle, matches[0]?.loaderData?.campus) }];
}

export async function loader(args: Route.LoaderArgs) {
  const viewer = await requireUser(args);
  return { policy: await getMessagePolicy(args.context.app, viewer) };
}

export async function action(args: Route.ActionArgs) {
  const viewer = await requireUser(args);
  return submitAccountForm(args.request, args.context.app, messagePolicySchema, async (value) => {
    await setMessagePolicy(args.context.app, viewer, value);
    return redirectWithToast("/settings/account/messages", ACCOUNT_UPDATED);
  });
}

/** Decision 0670: 'Who can message me', two choices and Save (docs/product/message-requests.md). */
export default function WhoCanMessageMe({ loaderData, actionData }: Route.ComponentProps) {
  const account = useAccountForm(messagePolicySchema, {
    id: `policy-${loaderData.policy}`,
    saved: { policy: loaderData.policy },
    actionData,
    validate: "onSubmit",
  });
  const field = account.fields.policy;
  const errorId = `${field.id}-error`;
  const noteId = `${field.id}-note`;
  const error = field.errors?.[0];

  return (
    <SettingsForm title={REQUEST_MESSAGES.settingTitle} account={account}>
      <fieldset
        aria-describedby={[noteId, error ? errorId : null].filter(Boolean).join(" ")}
        className="flex flex-col gap-1"
      >
        <legend className="mb-2 text-sm font-medium text-zinc-800">{REQUEST_MESSAGES.settingTitle}</legend>
        {MESSAGE_POLICIES.map((policy) => (
          <label
            key={policy}
            className="flex cursor-pointer items-center gap-3 rounded-lg px-2 py-2 text-[15px] text-zinc-900 hover:bg-zinc-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600"
          >
            <input
              type="radio"
              name={field.name}
              value={policy}
              defaultChecked={field.initialValue === policy}
              key={`${field.key}-${policy}`}
              aria-invalid={error ? true : undefined}
              className="size-5 shrink-0 accent-brand-600"
            />
            {MESSAGE_POLICY_LABELS[policy]}
          </label>
        ))}
      </fieldset>
      <AccountFormError id={errorId} message={error} />
      <p id={noteId} className="text-sm text-zinc-600">
        {REQUEST_MESSAGES.settingNote}
      </p>
    </SettingsForm>
  );
}
