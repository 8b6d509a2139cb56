import type { ReactNode } from "react";
import { Link, type MetaDescriptor } from "react-router";
import { useSignInModal } from "~/app/components/auth/sign-in-modal";
import { campusBrand, pageTitle } from "~/app/components/shell/campus";
import { buttonClass } from "~/app/components/ui/button";
import { ShieldIcon } from "~/app/components/ui/icons";

/** The frame both private screens share: the campus's logo, their words, and 'Click to Join' (the sign-in modal). */
function PrivateCampusFrame({
  campus,
  labelledBy,
  children,
}: {
  campus: { name: string; logo: string | null };
  labelledBy: string;
  children: ReactNode;
}) {
  const signIn = useSignInModal();
  return (
    <section
      aria-labelledby={labelledBy}
      className="rounded-2xl border border-zinc-200 bg-white px-6 py-12 text-center md:py-16"
    >
      {campus.logo ? (
        <img
          src={campus.logo}
          alt={`${campus.name} logo`}
          width={72}
          height={72}
          className="mx-auto size-[72px] rounded-2xl shadow-sm"
        />
      ) : null}
      {children}
      <Link
        to="/user_registration"
        onClick={(event) => {
          event.preventDefault();
          signIn.open("join campus");
        }}
        className={buttonClass("primary", "mt-7 h-11 px-7")}
      >
        Click to Join
      </Link>
    </section>
  );
}

/** The gate itself: 'This community is private' with 'Click to Join' (the sign-in modal). */
export function PrivateCommunityGate({
  campus,
}: {
  campus: { name: string; school: string | null; logo: string | null };
}) {
  return (
    <PrivateCampusFrame campus={campus} labelledBy="private-title">
      <div className="mx-auto mt-5 flex size-11 items-center justify-center rounded-full bg-zinc-100 text-zinc-700">
        <ShieldIcon className="size-[22px]" />
      </div>
      <h1 id="private-title" className="mt-4 text-2xl font-extrabold tracking-tight text-zinc-950">
        This community is private
      </h1>
      <p className="mx-auto mt-2 max-w-sm text-[15px] leading-relaxed text-zinc-600">
        Only members can see what is posted here. Log in or sign up to join the community of{" "}
        {campus.school ?? campus.name}.
      </p>
    </PrivateCampusFrame>
  );
}

/** Decision 0135: all a visitor learns of a private campus's post from its shared link. */
export const PRIVATE_LISTING_TEXT = "Join to see this listing";

/**
 * The document head of a shared link to a private campus's post, opened by a visitor (decision 0135): the campus and 'Join to see this listing' for the title and the link
 * preview (og:, twitter:), never the post's author, text or photos; not for search engines.
 */
export function privateListingMeta(campus: { name: string; generic: boolean } | undefined): MetaDescriptor[] {
  const brand = campus ? campusBrand(campus) : "Campus Buy Sell";
  return [
    { title: pageTitle(PRIVATE_LISTING_TEXT, campus) },
    { name: "description", content: `${PRIVATE_LISTING_TEXT} on ${brand}.` },
    { name: "robots", content: "noindex" },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: brand },
    { property: "og:title", content: brand },
    { property: "og:description", content: PRIVATE_LISTING_TEXT },
    { name: "twitter:card", content: "summary" },
    { name: "twitter:title", content: brand },
    { name: "twitter:description", content: PRIVATE_LISTING_TEXT },
  ];
}

/**
 * The preview card a visitor gets for a shared link to a private campus's post (decision 0135):
 * the campus's name and logo, 'Join to see this listing' and 'Click to Join'; nothing of the post.
 */
export function PrivateListingCard({
  campus,
}: {
  campus: { name: string; generic: boolean; logo: string | null };
}) {
  return (
    <PrivateCampusFrame campus={campus} labelledBy="private-listing-title">
      <p className="mt-5 text-sm font-semibold tracking-wide text-zinc-500 uppercase">
        {campusBrand(campus)}
      </p>
      <h1 id="private-listing-title" className="mt-2 text-2xl font-extrabold tracking-tight text-zinc-950">
        {PRIVATE_LISTING_TEXT}
      </h1>
      <p className="mx-auto mt-2 max-w-sm text-[15px] leading-relaxed text-zinc-600">
        This listing was posted in a private community. Log in or sign up to join {campus.name} and see it.
      </p>
    </PrivateCampusFrame>
  );
}
