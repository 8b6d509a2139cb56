import { NavLink } from "react-router";

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
  { to: "/admin/moderators", label: "Moderators", end: false },
] as const;

export function ConsoleNav() {
  return (
    <nav aria-label="Operator console" className="-mx-1 overflow-x-auto">
      <ul className="flex min-w-max gap-1 px-1 pb-1">
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
