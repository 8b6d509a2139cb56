import {
  AccountFormError,
  AccountFormNote,
  SettingsForm,
  useAccountForm,
} from "~/app/components/settings/account-form";
import { pageTitle } from "~/app/components/shell/campus";
import { redirectWithToast } from "~/app/lib/toast.server";
import { requireUser } from "~/app/lib/viewer.server";
import {
  ACCOUNT_UPDATED,
  requireAccount,
  submitAccountForm,
} from "~/app/routes/settings/account/account-action.server";
import {
  BIRTH_YEAR_NEWEST,
  BIRTH_YEAR_OLDEST,
  birthDateSchema,
  MONTH_NAMES,
} from "~/server/accounts/schemas.shared";
import { changeBirthDate } from "~/server/accounts/settings";
import type { Route } from "./+types/birth-date";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Birth date", matches[0]?.loaderData?.campus) }];
}

export async function loader(args: Route.LoaderArgs) {
  const { birthDate } = (await requireAccount(args)).account;
  return {
    month: birthDate ? String(birthDate.month) : "",
    day: birthDate ? String(birthDate.day) : "",
    year: birthDate ? String(birthDate.year) : "",
  };
}

export async function action(args: Route.ActionArgs) {
  const viewer = await requireUser(args);
  // spec 1 §8: server messages for the birth date show as danger alerts.
  return submitAccountForm(args.request, args.context.app, birthDateSchema, async (value) => {
    await changeBirthDate(args.context.app, viewer, {
      month: String(value.month),
      day: String(value.day),
      year: String(value.year),
    });
    return redirectWithToast("/settings/account/birth_date", ACCOUNT_UPDATED);
  });
}

// spec 1 §5: months January to December, days 1 to 31, years 2021 down to 1970.
const months = MONTH_NAMES.map((name, index) => ({ value: String(index + 1), label: name }));
const days = Array.from({ length: 31 }, (_, index) => String(index + 1));
const years = Array.from({ length: BIRTH_YEAR_NEWEST - BIRTH_YEAR_OLDEST + 1 }, (_, index) =>
  String(BIRTH_YEAR_NEWEST - index),
);

function Select({
  label,
  name,
  id,
  defaultValue,
  options,
  describedBy,
}: {
  label: string;
  name: string;
  id: string;
  defaultValue: string;
  options: { value: string; label: string }[];
  describedBy?: string;
}) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-zinc-800">
        {label}
      </label>
      <select
        id={id}
        name={name}
        defaultValue={defaultValue}
        aria-describedby={describedBy}
        className="rounded-lg border border-zinc-300 bg-white px-3 py-2.5 text-base text-zinc-900 outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-600/20"
      >
        <option value="">{label}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** spec 1 §2 /settings/account/birth_date, §5 'Birth date'. */
/** Options whose label is their value (days, years). */
function numbered(values: readonly string[]) {
  return values.map((value) => ({ value, label: value }));
}

export default function BirthDate({ loaderData, actionData }: Route.ComponentProps) {
  const account = useAccountForm(birthDateSchema, {
    id: `birth-date-${loaderData.year}-${loaderData.month}-${loaderData.day}`,
    saved: loaderData,
    actionData,
    validate: "onSubmit",
    // Save stays available with one select chosen, so 'Please fill in all the fields' can be said.
    save: { everyField: false },
  });
  const { form, fields } = account;
  const errorId = `${form.id}-error`;
  const error = form.errors?.[0];
  const describedBy = error ? errorId : undefined;

  return (
    <SettingsForm title="Birth date" account={account}>
      <div className="grid grid-cols-[minmax(0,1.6fr)_minmax(0,1fr)_minmax(0,1.2fr)] gap-3">
        {[
          { label: "Month", field: fields.month, value: loaderData.month, options: months },
          { label: "Day", field: fields.day, value: loaderData.day, options: numbered(days) },
          { label: "Year", field: fields.year, value: loaderData.year, options: numbered(years) },
        ].map(({ label, field, value, options }) => (
          <Select
            // A reset (a new saved date) gives Conform new keys: the selects start afresh.
            key={`${label}:${field.key ?? ""}`}
            label={label}
            name={field.name}
            id={field.id}
            defaultValue={value}
            options={options}
            describedBy={describedBy}
          />
        ))}
      </div>
      <AccountFormError id={errorId} message={error} />
      <AccountFormNote>Your birth date is not shown publicly.</AccountFormNote>
    </SettingsForm>
  );
}
