import { OneFieldSettingsForm } from "~/app/components/settings/account-form";
import { pageTitle } from "~/app/components/shell/campus";
import { redirectWithToast } from "~/app/lib/toast.server";
import { requireUser } from "~/app/lib/viewer.server";
import { ACCOUNT_UPDATED, submitAccountForm } from "~/app/routes/settings/account/account-action.server";
import { MAX_USERNAME_LENGTH, usernameSchema } from "~/server/accounts/schemas.shared";
import { changeUsername } from "~/server/accounts/settings";
import type { Route } from "./+types/screen-name";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Username", matches[0]?.loaderData?.campus) }];
}

export async function loader(args: Route.LoaderArgs) {
  const viewer = await requireUser(args);
  return { username: viewer.username };
}

export async function action(args: Route.ActionArgs) {
  const viewer = await requireUser(args);
  return submitAccountForm(
    args.request,
    args.context.app,
    usernameSchema,
    async (value) => {
      await changeUsername(args.context.app, viewer, value);
      return redirectWithToast("/settings/account/screen_name", ACCOUNT_UPDATED);
    },
    { inlineFields: ["username"] },
  );
}

/** spec 1 §2 /settings/account/screen_name, §5 'Username change'. */
export default function ScreenName({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <OneFieldSettingsForm
      title="Username"
      schema={usernameSchema}
      name="username"
      // A new saved value starts the form afresh (it shows what was saved, in lower case).
      saved={loaderData.username}
      actionData={actionData}
      note={`Your profile lives at /${loaderData.username}. Letters, numbers, _ and - only; saved in lower case.`}
      label="Username"
      autoComplete="username"
      autoCapitalize="none"
      spellCheck={false}
      maxLength={MAX_USERNAME_LENGTH}
    />
  );
}
