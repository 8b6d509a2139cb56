import { useEffect, useRef } from "react";
import { NavLink, useLocation } from "react-router";

/**
 * Decision 0550: the operator console's sections, in the order an operator checks them. Every
 * console page (site admins only) shows this bar above its heading; it scrolls sideways on a phone.
 */
export const CONSOLE_SECTIONS = [
  { to: "/admin", label: "Dashboard", end: true },
  { to: "/admin/campuses", label: "Campuses", end: false },
  { to: "/admin/students", label: "Students", end: false },
  { to: "/admin/payments", label: "Payments", end: false },
  { to: "/admin/mail", label: "Mail", end: false },
  { to: "/admin/jobs", label: "Jobs", end: false },
  { to: "/admin/safety", label: "Safety", end: false },
  { to: "/admin/moderators", label: "Moderators", end: false },
] as const;

/**
 * Decision 0574: on a phone the bar is wider than the screen; the current section (NavLink's
 * aria-current="page") is scrolled into the middle of the bar, the bar alone, without animation,
 * so Jobs or Moderators is not off the edge; again when the screen turns. Wide screens show the
 * whole bar, on a second line when the main column is too narrow for it: nothing moves.
 */
function useCurrentInView(bar: React.RefObject<HTMLElement | null>, pathname: string) {
  useEffect(() => {
    const place = () => {
      const nav = bar.current;
      const current = nav?.querySelector<HTMLElement>('[aria-current="page"]');
      if (!nav || !current || nav.scrollWidth <= nav.clientWidth) return;
      nav.scrollLeft = current.offsetLeft - (nav.clientWidth - current.offsetWidth) / 2;
    };
    // The pathname is the trigger: another section became current.
    void pathname;
    place();
    window.addEventListener("resize", place);
    return () => window.removeEventListener("resize", place);
  }, [bar, pathname]);
}

export function ConsoleNav() {
  const bar = useRef<HTMLElement>(null);
  useCurrentInView(bar, useLocation().pathname);
  return (
    <nav ref={bar} aria-label="Operator console" className="relative -mx-1 overflow-x-auto">
      <ul className="flex min-w-max gap-1 px-1 pb-1 md:min-w-0 md:flex-wrap">
        {CONSOLE_SECTIONS.map((section) => (
          <li key={section.to}>
            <NavLink
              to={section.to}
              end={section.end}
              className={({ isActive }) =>
                `block rounded-full px-3 py-1.5 text-sm font-medium outline-none focus-visible:ring-2 focus-visible:ring-brand-600 ${
                  isActive ? "bg-zinc-900 text-white" : "text-zinc-700 hover:bg-zinc-100"
                }`
              }
            >
              {section.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
