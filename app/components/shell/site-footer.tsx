import { ListLink } from "~/app/components/ui/list-link";
import { useRootData } from "~/app/lib/root-data";

/**
 * spec 1 §2: footer links Terms, Trust/Safety, Returns, About, Help; and the campus's public
 * moderation log (decision 0549).
 */
export const footerLinks = [
  { label: "Terms", to: "/settings/terms" },
  { label: "Trust/Safety", to: "/settings/trust_and_safety" },
  { label: "Returns", to: "/settings/returns" },
  { label: "About", to: "/settings/about" },
  { label: "Help", to: "/settings/help" },
  { label: "Moderation log", to: "/modlog" },
] as const;

/**
 * The small print under the right-hand widget, the campuses' and the generic site's alike. The
 * original showed 2025 on campuses and 2024 on the generic site (spec 1 §9): one
 * year, the current one by the app's clock (the root loader's, so server and browser agree).
 */
export function SiteFooter() {
  const { year } = useRootData();
  return (
    <footer className="px-4 text-[13px] text-zinc-500">
      <nav aria-label="Footer">
        <ul className="flex flex-wrap gap-x-3 gap-y-1">
          {footerLinks.map((link) => (
            <li key={link.to}>
              <ListLink to={link.to} className="rounded hover:text-zinc-800 hover:underline">
                {link.label}
              </ListLink>
            </li>
          ))}
        </ul>
      </nav>
      <p className="mt-2">© {year} Campus Buy Sell</p>
    </footer>
  );
}
