import { Link } from "react-router";
import { ChevronRightIcon } from "~/app/components/ui/icons";
import { MONTH_NAMES } from "~/server/accounts/schemas.shared";

/** 'March 4, 2001' (spec 1 §2: 'month day, year'). */
export function formatMonthDayYear(date: { month: number; day: number; year: number }): string {
  return `${MONTH_NAMES[date.month - 1] ?? ""} ${date.day}, ${date.year}`;
}

/** A moment as 'March 4, 2001', read in UTC so the server and the browser agree (decision 0040). */
export function formatCalendarDate(moment: Date): string {
  return formatMonthDayYear({
    month: moment.getUTCMonth() + 1,
    day: moment.getUTCDate(),
    year: moment.getUTCFullYear(),
  });
}

/** spec 1 §3: gender is male, female or other; 'None' until chosen. */
export function formatGender(gender: string | null): string {
  return gender ? gender.charAt(0).toUpperCase() + gender.slice(1) : "None";
}

/** Cents as dollars: 0 → '$0.00' (spec 1 §3 available_funds is in cents). */
export function formatCents(cents: number): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100);
}

export interface AccountRow {
  label: string;
  value: string;
  /** The sub-page that changes it; rows without one are facts. */
  to?: string;
  /** Shown in the brand colour: an invitation ('click to add', 'Join your campus') rather than a value. */
  prompt?: boolean;
  /** A line under the row. */
  note?: string;
}

/** The account overview list (spec 1 §2 'Settings'). */
export function AccountRows({ rows }: { rows: AccountRow[] }) {
  return (
    <ul className="-mx-5 divide-y divide-zinc-100 md:-mx-7">
      {rows.map((row) => {
        const content = (
          <>
            <span className="w-32 shrink-0 text-[15px] font-medium text-zinc-500 xs:w-40">{row.label}</span>
            <span className="flex min-w-0 flex-1 flex-col">
              <span
                className={`truncate text-[15px] ${row.prompt ? "font-semibold text-brand-600" : "text-zinc-900"}`}
              >
                {row.value}
              </span>
              {row.note ? <span className="text-xs text-zinc-500">{row.note}</span> : null}
            </span>
          </>
        );
        return (
          <li key={row.label}>
            {row.to ? (
              <Link
                to={row.to}
                className="flex items-center gap-3 px-5 py-3.5 hover:bg-zinc-50 focus-visible:-outline-offset-2 md:px-7"
              >
                {content}
                <ChevronRightIcon className="size-4 shrink-0 text-zinc-400" />
              </Link>
            ) : (
              <div className="flex items-center gap-3 px-5 py-3.5 md:px-7">
                {content}
                <span className="size-4 shrink-0" />
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
