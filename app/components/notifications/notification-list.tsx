import { Link, NavLink, useLocation, useRevalidator } from "react-router";
import { formatAge } from "~/app/components/posts/post-format";
import { Avatar } from "~/app/components/ui/avatar";
import { BackButton } from "~/app/components/ui/back-button";
import { buttonClass } from "~/app/components/ui/button";
import { BadgeCheckIcon, BellIcon } from "~/app/components/ui/icons";
import { ListLink } from "~/app/components/ui/list-link";
import { LoadMoreList } from "~/app/components/ui/load-more-list";
import type { NotificationItem, NotificationsPage } from "~/server/notifications/notifications";

/** The head of /notifications and /notifications/mentions: back, the title and the tabs. */
export function NotificationsHeader() {
  return (
    <>
      <div className="flex items-center gap-2">
        <BackButton />
        <h1 className="text-xl font-bold tracking-tight text-zinc-900 md:text-2xl">Notifications</h1>
      </div>
      <NotificationTabs />
    </>
  );
}

/** The tabs of /notifications (spec 2 §2): all, and the mentions demo page. */
function NotificationTabs() {
  const tab = ({ isActive }: { isActive: boolean }) =>
    `rounded-full px-4 py-1.5 text-sm font-semibold ${
      isActive ? "bg-zinc-900 text-white" : "text-zinc-700 hover:bg-zinc-200/70"
    }`;
  return (
    <nav aria-label="Notifications" className="flex gap-2">
      <NavLink to="/notifications" end className={tab}>
        All
      </NavLink>
      <NavLink to="/notifications/mentions" className={tab}>
        Mentions
      </NavLink>
    </nav>
  );
}

function NotificationRow({ item, now }: { item: NotificationItem; now: Date }) {
  const [first] = item.actors;
  const created = new Date(item.createdAt);
  return (
    <li>
      <ListLink
        to={item.href}
        data-unread={item.unread ? "true" : undefined}
        className={`flex min-h-16 items-start gap-3 rounded-xl px-3 py-3 focus-visible:outline-2 focus-visible:outline-brand-600 ${
          item.unread ? "bg-brand-50 hover:bg-brand-100/70" : "hover:bg-zinc-50"
        }`}
      >
        <span className="relative shrink-0">
          {item.type === "moderation" ? (
            // Decision 0543: a moderation notice names no one; a plain mark stands for the moderators.
            <span
              aria-hidden="true"
              className="flex size-10 items-center justify-center rounded-full bg-zinc-900 text-sm font-bold text-white"
            >
              M
            </span>
          ) : item.type === "data export" ? (
            // Decision 0570: the student's own archive, no one's avatar.
            <span
              aria-hidden="true"
              className="flex size-10 items-center justify-center rounded-full bg-brand-600 text-lg font-bold text-white"
            >
              ↓
            </span>
          ) : item.type === "badge" ? (
            // Decision 0681: the student's own badge asks for a new code; the badge's mark, no one's avatar.
            <span
              aria-hidden="true"
              className="flex size-10 items-center justify-center rounded-full bg-brand-50 text-brand-600 ring-1 ring-brand-100"
            >
              <BadgeCheckIcon className="size-6" />
            </span>
          ) : (
            <Avatar person={first ?? null} size="md" />
          )}
          {item.others > 0 ? (
            <span className="absolute -right-1 -bottom-1 rounded-full bg-zinc-900 px-1.5 text-[11px] font-bold text-white ring-2 ring-white">
              +{item.others}
            </span>
          ) : null}
        </span>
        <span className="min-w-0 flex-1 text-[15px] leading-snug text-zinc-900">
          <span className={item.unread ? "font-semibold" : undefined}>{item.text}</span>
          {/* Decision 0475: zinc-600, as zinc-500 falls under 4.5:1 on the unread rows' brand-50. */}
          <time dateTime={item.createdAt} className="mt-0.5 block text-sm text-zinc-600">
            {formatAge(created, now, "UTC")}
          </time>
        </span>
        {item.unread ? (
          <span className="mt-2 size-2.5 shrink-0 rounded-full bg-brand-600">
            <span className="sr-only">Unread</span>
          </span>
        ) : null}
      </ListLink>
    </li>
  );
}

/**
 * spec 2 §2 '/notifications': 15 a page, 'Load more' fetching the next page in place (or opening
 * it without JavaScript). Unread lines are highlighted as they came; a reload (new ones arrived)
 * starts the list again from its first page.
 */
export function NotificationList({ page, now }: { page: NotificationsPage; now: string }) {
  const clock = new Date(now);
  return (
    <LoadMoreList
      page={page}
      label="Notifications"
      listClassName="flex flex-col gap-1"
      restartOnNewPage
      renderItem={(item) => <NotificationRow key={item.id} item={item} now={clock} />}
      empty={
        <section className="rounded-2xl border border-dashed border-zinc-300 bg-white px-6 py-12 text-center">
          <span className="mx-auto flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
            <BellIcon className="size-6" />
          </span>
          <h2 className="mt-4 text-lg font-bold text-zinc-900">No notifications yet</h2>
          <p className="mt-1 text-[15px] text-zinc-600">
            When someone saves or comments on your posts, or messages you, it shows up here.
          </p>
        </section>
      }
    />
  );
}

/** spec 2 §7 'Failed queries give an empty list and error state': the error, with a way to try again. */
export function NotificationsError({ message }: { message: string }) {
  const revalidator = useRevalidator();
  const location = useLocation();
  return (
    <section
      role="alert"
      className="rounded-2xl border border-zinc-200 bg-white px-6 py-10 text-center text-[15px] text-zinc-800"
    >
      <p>{message}</p>
      <Link
        to={`${location.pathname}${location.search}`}
        onClick={(event) => {
          event.preventDefault();
          void revalidator.revalidate();
        }}
        className={buttonClass("primary", "mt-5")}
      >
        {revalidator.state === "loading" ? "Trying again…" : "Try Again"}
      </Link>
    </section>
  );
}
