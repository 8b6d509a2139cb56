import {
  AccountFormError,
  AccountFormNote,
  SettingsForm,
  useAccountForm,
} from "~/app/components/settings/account-form";
import { formatGender } from "~/app/components/settings/account-rows";
import { pageTitle } from "~/app/components/shell/campus";
import { redirectWithToast } from "~/app/lib/toast.server";
import { requireUser } from "~/app/lib/viewer.server";
import {
  ACCOUNT_UPDATED,
  requireAccount,
  submitAccountForm,
} from "~/app/routes/settings/account/account-action.server";
import { GENDERS, genderSchema } from "~/server/accounts/schemas.shared";
import { changeGender } from "~/server/accounts/settings";
import type { Route } from "./+types/gender";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Gender", matches[0]?.loaderData?.campus) }];
}

export async function loader(args: Route.LoaderArgs) {
  const { account } = await requireAccount(args);
  return { gender: account.gender ?? "" };
}

export async function action(args: Route.ActionArgs) {
  const viewer = await requireUser(args);
  // spec 1 §8: server messages for gender show as danger alerts.
  return submitAccountForm(args.request, args.context.app, genderSchema, async (value) => {
    await changeGender(args.context.app, viewer, value);
    return redirectWithToast("/settings/account/gender", ACCOUNT_UPDATED);
  });
}

/** spec 1 §2 /settings/account/gender, §5 'Gender', §6 'Gender is stated as not shown publicly.' */
export default function Gender({ loaderData, actionData }: Route.ComponentProps) {
  const account = useAccountForm(genderSchema, {
    id: `gender-${loaderData.gender}`,
    saved: { gender: loaderData.gender },
    actionData,
    validate: "onSubmit",
  });
  const field = account.fields.gender;
  const errorId = `${field.id}-error`;
  const error = field.errors?.[0];

  return (
    <SettingsForm title="Gender" account={account}>
      <fieldset aria-describedby={error ? errorId : undefined} className="flex flex-col gap-1">
        <legend className="mb-2 text-sm font-medium text-zinc-800">Gender</legend>
        {GENDERS.map((gender) => (
          <label
            key={gender}
            className="flex cursor-pointer items-center gap-3 rounded-lg px-2 py-2 text-[15px] text-zinc-900 hover:bg-zinc-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600"
          >
            <input
              type="radio"
              name={field.name}
              value={gender}
              defaultChecked={field.initialValue === gender}
              key={`${field.key}-${gender}`}
              aria-invalid={error ? true : undefined}
              className="size-5 accent-brand-600"
            />
            {formatGender(gender)}
          </label>
        ))}
      </fieldset>
      <AccountFormError id={errorId} message={error} />
      <AccountFormNote>Your gender is not shown publicly.</AccountFormNote>
    </SettingsForm>
  );
}
