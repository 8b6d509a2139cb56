import type { ReactNode } from "react";
import { Link } from "react-router";
import { BackButton } from "~/app/components/ui/back-button";
import { ArrowLeftIcon } from "~/app/components/ui/icons";
import { UnreadBadge } from "~/app/components/ui/unread-badge";
import { useRootData } from "~/app/lib/root-data";

interface SettingsPageProps {
  title: string;
  /** A line under the title, e.g. 'Last updated May 27, 2021'. */
  subtitle?: ReactNode;
  /**
   * Where the back button goes (1000 px and below). By default the navigation
   * memory decides (spec 1 §2): the last page before settings, else /home; the
   * account sub-pages go back to /settings/account.
   */
  backTo?: string;
  /**
   * Puts the unread badge (notifications plus chats) on the back button at
   * 769 px and below (spec 1 §2: the account overview's back button).
   */
  backBadge?: boolean;
  children: ReactNode;
}

/**
 * The frame of every settings sub-page: a title row with a back button on
 * screens up to 1000 px (where the sub-page shows alone), then a white card.
 */
export function SettingsPage({ title, subtitle, backTo, backBadge = false, children }: SettingsPageProps) {
  const { unreadCount } = useRootData();
  const badge = backBadge ? (
    <UnreadBadge count={unreadCount} className="absolute -top-0.5 -right-0.5 md:hidden" />
  ) : null;
  return (
    <article aria-labelledby="settings-page-title" className="min-w-0">
      <div className="mb-3 flex items-center gap-2 md:mb-4">
        {backTo ? (
          <Link
            to={backTo}
            className="relative -ml-2 flex size-10 shrink-0 items-center justify-center rounded-full text-zinc-800 hover:bg-zinc-200/60 lg:hidden"
          >
            <ArrowLeftIcon className="size-5" />
            <span className="sr-only">Back</span>
            {badge}
          </Link>
        ) : (
          <BackButton className="-ml-2 lg:hidden">{badge}</BackButton>
        )}
        <div className="min-w-0">
          <h1 id="settings-page-title" className="text-xl font-bold tracking-tight text-zinc-900 md:text-2xl">
            {title}
          </h1>
          {subtitle ? <p className="text-sm text-zinc-500">{subtitle}</p> : null}
        </div>
      </div>
      <div className="rounded-2xl border border-zinc-200 bg-white p-5 md:p-7">{children}</div>
    </article>
  );
}
