import { data, useFetcher } from "react-router";
import { z } from "zod";
import { SettingsPage } from "~/app/components/settings/settings-page";
import { pageTitle } from "~/app/components/shell/campus";
import { useActionToast } from "~/app/components/ui/action-feedback";
import { Avatar } from "~/app/components/ui/avatar";
import { failureReply } from "~/app/lib/errors.server";
import { formFields, readForm, readIntent } from "~/app/lib/form.server";
import type { ToastInput } from "~/app/lib/toast";
import { requireVerifiedUser } from "~/app/lib/viewer.server";
import { type BlockedPerson, listBlockedUsers, unblockUser } from "~/server/chats/blocks";
import { CHAT_MESSAGES } from "~/server/chats/schemas.shared";
import type { Route } from "./+types/blocked";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Blocked users", matches[0]?.loaderData?.campus) }];
}

/** Decision 0230: the people the viewer blocked, newest first. */
export async function loader(args: Route.LoaderArgs) {
  const viewer = await requireVerifiedUser(args);
  return data({ blocked: await listBlockedUsers(args.context.app, viewer) });
}

const BLOCKED_INTENTS = z.enum(["unblock-user"]).default("unblock-user");

export async function action(args: Route.ActionArgs) {
  const viewer = await requireVerifiedUser(args);
  const form = await readForm(args.request);
  const intent = readIntent(form, BLOCKED_INTENTS);
  const { userId } = formFields(form);
  try {
    await unblockUser(args.context.app, viewer, typeof userId === "string" ? userId : "");
    return data({ ok: true, toast: { message: CHAT_MESSAGES.userUnblocked, type: "okay" } as ToastInput });
  } catch (error) {
    return failureReply(args.context.app, error, { intent, fallback: CHAT_MESSAGES.somethingWentWrong });
  }
}

/** /settings/account/blocked: each blocked person with Unblock (decision 0230). */
export default function BlockedUsers({ loaderData }: Route.ComponentProps) {
  return (
    <SettingsPage title="Blocked users" backTo="/settings/account">
      {loaderData.blocked.length === 0 ? (
        <p className="text-[15px] text-zinc-600">You haven't blocked anyone.</p>
      ) : (
        <ul className="-mx-5 divide-y divide-zinc-100 md:-mx-7">
          {loaderData.blocked.map((person) => (
            <BlockedRow key={person.id} person={person} />
          ))}
        </ul>
      )}
    </SettingsPage>
  );
}

function BlockedRow({ person }: { person: BlockedPerson }) {
  const unblock = useFetcher<{ toast?: ToastInput | null }>();
  useActionToast(unblock.data?.toast);
  return (
    <li className="flex items-center gap-3 px-5 py-3 md:px-7">
      <Avatar person={person} />
      <span className="min-w-0 flex-1">
        <span className="block truncate font-semibold">
          {person.firstName} {person.lastName}
        </span>
        <span className="block truncate text-sm text-zinc-500">@{person.username}</span>
      </span>
      <unblock.Form method="post">
        <input type="hidden" name="userId" value={person.id} />
        <button
          type="submit"
          className="rounded-full border border-zinc-300 px-3 py-1.5 text-sm font-semibold hover:bg-zinc-50"
        >
          Unblock
        </button>
      </unblock.Form>
    </li>
  );
}
