import { Link, useLocation } from "react-router";
import { ChevronRightIcon } from "~/app/components/ui/icons";
import { isCurrentSettingsItem, settingsNav } from "./settings-nav-model";

/** The settings list: its own screen up to 1000 px, the side panel beside the sub-page above. */
export function SettingsNav({ signedIn }: { signedIn: boolean }) {
  const { pathname } = useLocation();
  return (
    <nav aria-label="Settings" className="flex flex-col gap-5">
      {settingsNav(signedIn).map((section) => (
        <div key={section.heading ?? section.items[0]?.to}>
          {section.heading ? (
            <h2 className="mb-1.5 px-4 text-xs font-semibold tracking-wider text-zinc-500 uppercase">
              {section.heading}
            </h2>
          ) : null}
          <ul className="overflow-hidden rounded-2xl border border-zinc-200 bg-white">
            {section.items.map((item) => {
              const current = isCurrentSettingsItem(item.to, pathname);
              return (
                <li key={item.to} className="border-zinc-100 not-first:border-t">
                  <Link
                    to={item.to}
                    aria-current={current ? "page" : undefined}
                    className={`flex items-center justify-between gap-3 px-4 py-3.5 text-[15px] focus-visible:-outline-offset-2 ${
                      current
                        ? "bg-brand-50 font-semibold text-brand-700"
                        : `font-medium hover:bg-zinc-50 ${item.to === "/logout" ? "text-brand-700" : "text-zinc-800"}`
                    }`}
                  >
                    {item.label}
                    <ChevronRightIcon className="size-4 shrink-0 text-zinc-400" />
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </nav>
  );
}
