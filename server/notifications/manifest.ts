import { campusBrand } from "../campuses/names.shared";

/** The app's colour: the header's, and the browser's toolbar (root meta theme-color). */
export const THEME_COLOR = "#b91c1c";

/**
 * Decision 0253: the web app manifest of one campus's site — its name, its logo as
 * the icon (PNGs from scripts/make-app-icons.ts), standalone display — so the site installs to a
 * phone's home screen (and iOS allows web push only to installed apps).
 */
export function webAppManifest(campus: { id: string; name: string; generic: boolean; logo: string | null }) {
  const name = campusBrand(campus);
  const iconBase = (campus.logo ?? `/logos/${campus.id}.svg`)
    .replace(/^\/logos\//, "/icons/")
    .replace(/\.svg$/, "");
  return {
    id: "/",
    name,
    short_name: campus.generic ? "Buy Sell" : `${campus.name} Buy Sell`,
    description: "Buy and sell with students on your campus.",
    start_url: "/home",
    scope: "/",
    display: "standalone",
    background_color: "#ffffff",
    theme_color: THEME_COLOR,
    icons: [
      { src: `${iconBase}-192.png`, sizes: "192x192", type: "image/png", purpose: "any" },
      { src: `${iconBase}-512.png`, sizes: "512x512", type: "image/png", purpose: "any" },
    ],
  };
}
