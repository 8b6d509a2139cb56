/**
 * Names and addresses derived from the campus (spec 1 §1, §2): the brand
 * line, the search placeholder, the product's social account per campus.
 */

interface CampusNames {
  name: string;
  generic: boolean;
}

/** The product's support address, shown on the generic instance's 'Contact Us' widget. */
export const SUPPORT_EMAIL = "support@campusbuysell.com";

import { campusBrand } from "~/server/campuses/names.shared";

export { campusBrand };

/** spec 1 §1: each campus has a search box with the placeholder 'Search {campus} Buy / Sell'. */
export function searchPlaceholder(campus: CampusNames): string {
  return `Search ${campus.name} Buy / Sell`;
}

/**
 * spec 1 §2 'Settings': the product's social account is the campus name in lower
 * case followed by 'buysell' ('oubuysell'); the generic instance's is 'campusbuysell'.
 */
export function socialHandle(campus: CampusNames): string {
  if (campus.generic) return "campusbuysell";
  return `${campus.name.toLowerCase().replace(/[^a-z0-9]/g, "")}buysell`;
}

/** The Instagram profile where students send the product a direct message. */
export function socialUrl(campus: CampusNames): string {
  return `https://www.instagram.com/${socialHandle(campus)}/`;
}

/** '<page> | UT Buy / Sell', the document title of every page. */
export function pageTitle(page: string | null, campus: CampusNames | null | undefined): string {
  const brand = campus ? campusBrand(campus) : "Campus Buy Sell";
  return page ? `${page} | ${brand}` : brand;
}

/** 'Austin, TX' (or whichever of the two is known). */
export function campusLocation(campus: { city: string | null; state: string | null }): string | null {
  const parts = [campus.city, campus.state].filter((part): part is string => Boolean(part));
  return parts.length > 0 ? parts.join(", ") : null;
}
