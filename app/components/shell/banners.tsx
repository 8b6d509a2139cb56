import { Form, Link, useLocation } from "react-router";
import {
  BadgeCheckIcon,
  ChevronRightIcon,
  CloseIcon,
  ExternalLinkIcon,
  SchoolIcon,
} from "~/app/components/ui/icons";
import { useRootData } from "~/app/lib/root-data";

export type BannerKind = "verify" | "visit-campus";

/**
 * spec 1 §2 'Banners': 'Verify your account' for members whose e-mail is not
 * verified or who have no school e-mail; on the generic instance a green
 * 'Visit Your Campus' for school-verified members.
 */
export function bannerFor(
  viewer: { verified: boolean; schoolEmail: string | null; schoolVerified: boolean } | null,
  generic: boolean,
): BannerKind | null {
  if (!viewer) return null;
  if (!viewer.verified || !viewer.schoolEmail) return "verify";
  if (generic && viewer.schoolVerified) return "visit-campus";
  return null;
}

/** Where 'Verify your account' leads: choosing a school on the generic instance, else the school e-mail form. */
export function verifyBannerTarget(generic: boolean): string {
  return generic ? "/search_schools" : "/settings/account/school_email";
}

/**
 * The member's own campus site. The root loader sends it as `viewerCampusUrl`
 * (it knows the production hosts); without it the generic landing at /home,
 * whose 'View Your Campus' button opens the campus, is the way there.
 */
export function visitCampusTarget(root: {
  campus: { generic: boolean };
  viewerCampusUrl?: string | null;
}): string {
  return root.viewerCampusUrl ?? "/home";
}

/**
 * GRAD_YEAR_PATH of server/accounts/badge.shared.ts, written out: importing it would make the feed's
 * first-load chunk (which holds that module for the post cards) export it (decision 0340's budget).
 */
const GRAD_YEAR_PATH = "/settings/account/graduation_year";

/**
 * Decision 0682: a school-verified student without a class year is asked for it, once, by a
 * banner and not a wall: plain forms to the year page (they work before and without the
 * script); 'Not now' hides it. The server decides whether it shows (root data `gradYearBanner`).
 */
function GradYearBanner({ years }: { years: readonly number[] }) {
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  return (
    <section
      aria-labelledby="grad-year-banner"
      className="mb-3 flex items-start gap-3 rounded-2xl border border-brand-100 bg-brand-50 px-4 py-3 text-brand-700"
    >
      <BadgeCheckIcon className="mt-0.5 size-6 shrink-0" />
      <Form method="post" action={GRAD_YEAR_PATH} className="flex min-w-0 flex-1 flex-col gap-2">
        <input type="hidden" name="returnTo" value={here} />
        <label id="grad-year-banner" htmlFor="grad-year-banner-select" className="font-semibold">
          What’s your class year?
          <span className="block text-sm font-normal text-brand-700/80">
            Add it to your verified student badge.
          </span>
        </label>
        <span className="flex flex-wrap items-center gap-2">
          <select
            id="grad-year-banner-select"
            name="gradYear"
            required
            defaultValue=""
            className="rounded-lg border border-zinc-300 bg-white px-3 py-2 text-base text-zinc-900 outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-600/20"
          >
            <option value="">Graduation year</option>
            {years.map((year) => (
              <option key={year} value={String(year)}>
                {year}
              </option>
            ))}
          </select>
          <button
            type="submit"
            className="rounded-full bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
          >
            Save year
          </button>
        </span>
      </Form>
      <Form method="post" action={GRAD_YEAR_PATH}>
        <input type="hidden" name="returnTo" value={here} />
        <button
          type="submit"
          name="intent"
          value="dismiss"
          className="-m-1 rounded-full p-1 text-brand-700 hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          <CloseIcon className="size-5" />
          <span className="sr-only">Not now</span>
        </button>
      </Form>
    </section>
  );
}

export function Banners() {
  const root = useRootData();
  const year = root.gradYearBanner ? <GradYearBanner years={root.gradYearBanner} /> : null;
  return (
    <>
      <AccountBanner />
      {year}
    </>
  );
}

function AccountBanner() {
  const root = useRootData();
  const kind = bannerFor(root.viewer, root.campus.generic);
  if (kind === "verify") {
    return (
      <Link
        to={verifyBannerTarget(root.campus.generic)}
        className="mb-3 flex items-center gap-3 rounded-2xl border border-brand-100 bg-brand-50 px-4 py-3 text-brand-700 hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        <SchoolIcon className="size-6 shrink-0" />
        <span className="flex min-w-0 flex-1 flex-col">
          <span className="font-semibold">Verify your account</span>
          <span className="text-sm text-brand-700/80">
            {root.campus.generic
              ? "Find your school and confirm your school e-mail to join it."
              : "Confirm your school e-mail to post, comment and message."}
          </span>
        </span>
        <ChevronRightIcon className="size-5 shrink-0" />
      </Link>
    );
  }
  if (kind === "visit-campus") {
    const href = visitCampusTarget(root);
    const external = /^https?:/.test(href);
    return (
      <a
        href={href}
        {...(external ? { target: "_blank", rel: "noopener noreferrer" } : {})}
        className="mb-3 flex items-center gap-3 rounded-2xl bg-emerald-600 px-4 py-3 text-white hover:bg-emerald-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
      >
        <BadgeCheckIcon className="size-6 shrink-0" />
        <span className="flex-1 font-semibold">Visit Your Campus</span>
        {external ? <span className="sr-only">(opens in a new tab)</span> : null}
        <ExternalLinkIcon className="size-5 shrink-0" />
      </a>
    );
  }
  return null;
}
