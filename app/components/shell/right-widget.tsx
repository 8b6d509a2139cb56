import { lazy, Suspense, useState } from "react";
import { Button, buttonClass } from "~/app/components/ui/button";
import { InstagramIcon, MailIcon, MapPinIcon, ShareIcon, UsersIcon } from "~/app/components/ui/icons";
import { ListLink } from "~/app/components/ui/list-link";
import { useOnceTrue } from "~/app/lib/lazy-load";
import { useRootData } from "~/app/lib/root-data";
import { campusBrand, campusLocation, SUPPORT_EMAIL, socialHandle, socialUrl } from "./campus";
import { SiteFooter } from "./site-footer";

// Decision 0340: the share modal loads when it first opens.
const ShareModal = lazy(() =>
  import("~/app/components/ui/share-modal").then((module) => ({ default: module.ShareModal })),
);

const cardClass = "rounded-2xl border border-zinc-200 bg-white p-5";

/** 'About This Group' (spec 1 §2 'Shell and layout'), beside the feed on screens wider than 1170 px. */
function AboutThisGroup() {
  const { campus, viewer, memberCount } = useRootData();
  const [sharing, setSharing] = useState(false);
  const [shareUrl, setShareUrl] = useState("");
  const shareUsed = useOnceTrue(sharing);
  const location = campusLocation(campus);
  return (
    <section aria-labelledby="about-group-title" className={cardClass}>
      <h2 id="about-group-title" className="text-lg font-bold text-zinc-900">
        About This Group
      </h2>
      <p className="mt-1 text-sm text-zinc-600">
        {campus.school ? `The buy and sell community of ${campus.school}.` : campusBrand(campus)}
      </p>
      <ul className="mt-4 flex flex-col gap-2.5 text-sm text-zinc-700">
        {memberCount > 0 ? (
          <li className="flex items-center gap-2.5">
            <UsersIcon className="size-[18px] text-zinc-500" />
            {memberCount === 1 ? "1 member" : `${memberCount.toLocaleString("en-US")} members`}
          </li>
        ) : null}
        {location ? (
          <li className="flex items-center gap-2.5">
            <MapPinIcon className="size-[18px] text-zinc-500" />
            {location}
          </li>
        ) : null}
      </ul>
      <div className="mt-5">
        {viewer ? (
          <Button
            variant="primary"
            className="w-full"
            onClick={() => {
              // The campus's own address: this page's origin (each campus has its own host).
              setShareUrl(`${window.location.origin}/`);
              setSharing(true);
            }}
          >
            <ShareIcon className="size-[18px]" />
            Share Group
          </Button>
        ) : (
          <ListLink to="/user_registration" className={buttonClass("primary", "w-full")}>
            Join Group
          </ListLink>
        )}
      </div>
      <p className="mt-4 text-xs leading-relaxed text-zinc-500">
        By joining or using this group you agree to our{" "}
        <ListLink to="/settings/terms" className="font-medium text-zinc-700 underline hover:text-zinc-900">
          Terms of Service
        </ListLink>{" "}
        and{" "}
        <ListLink to="/settings/privacy" className="font-medium text-zinc-700 underline hover:text-zinc-900">
          Privacy Policy
        </ListLink>
        .
      </p>
      {viewer && shareUsed ? (
        <Suspense fallback={null}>
          <ShareModal
            open={sharing}
            onOpenChange={setSharing}
            url={shareUrl}
            subject={`Join ${campusBrand(campus)}`}
          />
        </Suspense>
      ) : null}
    </section>
  );
}

/** The generic instance's 'Contact Us' widget (spec 1 §2). */
function ContactUs() {
  const { campus } = useRootData();
  return (
    <section aria-labelledby="contact-title" className={cardClass}>
      <h2 id="contact-title" className="text-lg font-bold text-zinc-900">
        Contact Us
      </h2>
      <p className="mt-1 text-sm text-zinc-600">
        Questions, feedback, or a school you want to see here? We read every message.
      </p>
      <a
        href={`mailto:${SUPPORT_EMAIL}`}
        className="mt-4 flex items-center gap-2.5 rounded-lg text-sm font-medium text-zinc-800 hover:text-brand-700"
      >
        <MailIcon className="size-[18px] text-zinc-500" />
        {SUPPORT_EMAIL}
      </a>
      <a
        href={socialUrl(campus)}
        target="_blank"
        rel="noopener noreferrer"
        className={buttonClass("secondary", "mt-5 w-full")}
      >
        <InstagramIcon className="size-[18px]" />@{socialHandle(campus)}
        <span className="sr-only"> on Instagram (opens in a new tab)</span>
      </a>
    </section>
  );
}

/** The right-hand column, shown on screens wider than 1170 px. */
export function RightWidget() {
  const { campus } = useRootData();
  return (
    <aside
      aria-label={campus.generic ? "Contact" : "About this group"}
      className="sticky top-16 hidden max-h-[calc(100dvh-4rem)] w-[340px] shrink-0 flex-col gap-4 self-start overflow-y-auto py-4 pr-4 xl:flex"
    >
      {campus.generic ? <ContactUs /> : <AboutThisGroup />}
      <SiteFooter />
    </aside>
  );
}
