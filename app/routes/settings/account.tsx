import { Link } from "react-router";
import {
  type AccountRow,
  AccountRows,
  formatCalendarDate,
  formatGender,
  formatMonthDayYear,
} from "~/app/components/settings/account-rows";
import { SettingsPage } from "~/app/components/settings/settings-page";
import { pageTitle } from "~/app/components/shell/campus";
import { ChevronRightIcon } from "~/app/components/ui/icons";
import { requireAccount } from "~/app/routes/settings/account/account-action.server";
import { getMessagePolicy } from "~/server/chats/requests";
import { MESSAGE_POLICY_LABELS, REQUEST_MESSAGES } from "~/server/chats/requests.shared";
import { getOwnTrustLevel } from "~/server/trust/standing";
import type { Route } from "./+types/account";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Account Settings", matches[0]?.loaderData?.campus) }];
}

export async function loader(args: Route.LoaderArgs) {
  const { viewer, account } = await requireAccount(args);
  // The generic instance has no school of its own: joining starts by finding one (spec 1 §2 'Banners').
  const schoolEmailPage = args.context.campus.generic
    ? account.schoolEmail
      ? `/settings/account/school_email?campus=${encodeURIComponent(viewer.campusId)}`
      : "/search_schools"
    : "/settings/account/school_email";
  // spec 1 §2 'Settings': the overview rows, exactly as the spec lists them.
  const rows: AccountRow[] = [
    { label: "Username", value: account.username, to: "/settings/account/screen_name" },
    // Passwords are never shown; the row leads to the change-password page.
    { label: "Password", value: "not available", to: "/settings/account/password" },
    { label: "Email", value: account.email, to: "/settings/account/email" },
    account.phone
      ? { label: "Phone", value: account.phone, to: "/settings/account/phone" }
      : { label: "Phone", value: "click to add", to: "/settings/account/phone", prompt: true },
    account.schoolEmail
      ? { label: "School Email", value: account.schoolEmail, to: schoolEmailPage }
      : {
          label: "School Email",
          value: "Join your campus",
          to: schoolEmailPage,
          prompt: true,
        },
    { label: "Verified", value: account.schoolVerified ? "Yes" : "No" },
    { label: "Account created", value: formatCalendarDate(account.createdAt) },
    {
      label: "Gender",
      value: formatGender(account.gender),
      to: "/settings/account/gender",
      // spec 1 §6: gender is stated as not shown publicly.
      note: "Not shown publicly",
    },
    {
      label: "Birth date",
      value: account.birthDate ? formatMonthDayYear(account.birthDate) : "None",
      to: "/settings/account/birth_date",
    },
  ];
  const [messagePolicy, trust] = await Promise.all([
    getMessagePolicy(args.context.app, viewer),
    getOwnTrustLevel(args.context.app, viewer),
  ]);
  return { rows, messagePolicy, trustLevelName: trust.name };
}

/**
 * /settings/account (spec 1 §2): the overview. Its back button (1000 px and below)
 * carries the unread badge at 769 px and below.
 */
export default function AccountSettings({ loaderData }: Route.ComponentProps) {
  return (
    <SettingsPage title="Account Settings" backBadge>
      <AccountRows rows={loaderData.rows} />
      {/* Decision 0230: the people one has blocked, beyond the spec's rows. */}
      <p className="mt-5 text-[15px]">
        <Link to="/settings/account/blocked" className="font-semibold text-brand-700 underline">
          Blocked users
        </Link>
      </p>
      {/* Decision 0670: who can message the student, beside the spec's rows. */}
      <Link
        to="/settings/account/messages"
        className="mt-4 flex min-h-11 items-center justify-between gap-3 rounded-xl border border-zinc-200 px-4 py-2 text-[15px] font-medium text-zinc-900 hover:bg-zinc-50"
      >
        <span>
          {REQUEST_MESSAGES.settingTitle}
          <span className="block text-sm font-normal text-zinc-600">
            {MESSAGE_POLICY_LABELS[loaderData.messagePolicy]}
          </span>
        </span>
        <ChevronRightIcon className="size-4 shrink-0 text-zinc-500" />
      </Link>
      {/* Decision 0663: the student's trust level and what lifts it. */}
      <Link
        to="/settings/account/trust"
        className="mt-3 flex min-h-11 items-center justify-between gap-3 rounded-xl border border-zinc-200 px-4 py-2 text-[15px] font-medium text-zinc-900 hover:bg-zinc-50"
      >
        <span>
          Trust level
          <span className="block text-sm font-normal text-zinc-600" data-testid="trust-level-row">
            {loaderData.trustLevelName}
          </span>
        </span>
        <ChevronRightIcon className="size-4 shrink-0 text-zinc-500" />
      </Link>
      {/* Decision 0251: the e-mail (spec 1 §3 email_notifications) and push settings, beside the spec's rows. */}
      <Link
        to="/settings/notifications"
        className="mt-3 flex min-h-11 items-center justify-between rounded-xl border border-zinc-200 px-4 py-2 text-[15px] font-medium text-zinc-900 hover:bg-zinc-50"
      >
        Notification settings
        <ChevronRightIcon className="size-4 text-zinc-500" />
      </Link>
      {/* Decision 0620: saved searches and their alerts. */}
      <Link
        to="/settings/searches"
        className="mt-3 flex min-h-11 items-center justify-between rounded-xl border border-zinc-200 px-4 py-2 text-[15px] font-medium text-zinc-900 hover:bg-zinc-50"
      >
        Saved searches
        <ChevronRightIcon className="size-4 text-zinc-500" />
      </Link>
      {/* Decision 0548: strikes, restrictions and appeals, beside the spec's rows. */}
      <Link
        to="/settings/account/standing"
        className="mt-3 flex min-h-11 items-center justify-between rounded-xl border border-zinc-200 px-4 py-2 text-[15px] font-medium text-zinc-900 hover:bg-zinc-50"
      >
        Account standing
        <ChevronRightIcon className="size-4 text-zinc-500" />
      </Link>
      {/* Decisions 0570 and 0571: Download my data and Delete my account. */}
      <Link
        to="/settings/account/data"
        className="mt-3 flex min-h-11 items-center justify-between rounded-xl border border-zinc-200 px-4 py-2 text-[15px] font-medium text-zinc-900 hover:bg-zinc-50"
      >
        Your data: download or delete
        <ChevronRightIcon className="size-4 text-zinc-500" />
      </Link>
    </SettingsPage>
  );
}
