import { Link } from "react-router";
import { useSignInModal } from "~/app/components/auth/sign-in-modal";
import { socialHandle, socialUrl } from "~/app/components/shell/campus";
import { buttonClass } from "~/app/components/ui/button";
import { Disclosure, DisclosureList } from "~/app/components/ui/disclosure";
import { ExternalLinkIcon, MessageIcon, SchoolIcon, SearchIcon } from "~/app/components/ui/icons";

export type LandingAction =
  | { kind: "join"; label: "Join Your Campus"; to: string }
  | { kind: "find"; label: "Find Your Campus"; to: string }
  | { kind: "view"; label: "View Your Campus"; href: string };

/**
 * spec 1 §1: a school-verified member sees 'View Your Campus' (the campus site,
 * new tab); a signed-in member without a school sees 'Find Your Campus'
 * (/search_schools); a visitor sees 'Join Your Campus' (the sign-in modal; the
 * auth landing without JavaScript).
 */
export function landingAction(
  viewer: { schoolVerified: boolean } | null,
  viewerCampusUrl: string | null,
): LandingAction {
  if (!viewer) return { kind: "join", label: "Join Your Campus", to: "/user_registration" };
  if (viewer.schoolVerified && viewerCampusUrl) {
    return { kind: "view", label: "View Your Campus", href: viewerCampusUrl };
  }
  return { kind: "find", label: "Find Your Campus", to: "/search_schools" };
}

const steps = [
  {
    icon: SearchIcon,
    title: "Find your school",
    text: "Every campus has its own community. Search for yours and open it.",
  },
  {
    icon: SchoolIcon,
    title: "Verify with your .edu e-mail",
    text: "Confirm your school e-mail with a 4-digit code, so everyone you deal with is a fellow student.",
  },
  {
    icon: MessageIcon,
    title: "Post, message, meet",
    text: "Post in under 30 seconds, agree on a price by message, then meet in a safe spot and pay in person.",
  },
];

interface LandingProps {
  viewer: { schoolVerified: boolean } | null;
  viewerCampusUrl: string | null;
}

/** The generic instance's home (spec 1 §1): welcome, join or find a campus, how it works, FAQ. */
export function Landing({ viewer, viewerCampusUrl }: LandingProps) {
  const action = landingAction(viewer, viewerCampusUrl);
  const signIn = useSignInModal();
  const social = { name: "Campus Buy Sell", generic: true };
  return (
    <div className="flex flex-col gap-4">
      <section
        aria-labelledby="landing-title"
        className="overflow-hidden rounded-2xl border border-zinc-200 bg-white px-6 py-10 text-center md:px-10 md:py-14"
      >
        <img
          src="/logos/www.svg"
          alt=""
          width={72}
          height={72}
          className="mx-auto size-[72px] rounded-2xl shadow-sm"
        />
        <h1
          id="landing-title"
          className="mt-6 text-3xl font-extrabold tracking-tight text-balance text-zinc-950 md:text-4xl"
        >
          Welcome to Campus Buy Sell
        </h1>
        <p className="mx-auto mt-3 max-w-md text-base leading-relaxed text-zinc-600 md:text-lg">
          The buy and sell community for your university. Textbooks, furniture, tickets and sublets, from
          students on your campus.
        </p>
        <div className="mt-8 flex flex-col items-center gap-3">
          {action.kind === "view" ? (
            <a
              href={action.href}
              target="_blank"
              rel="noopener noreferrer"
              className={buttonClass("primary", "h-12 w-full px-8 text-base xs:w-auto")}
            >
              {action.label}
              <ExternalLinkIcon className="size-[18px]" />
              <span className="sr-only">(opens in a new tab)</span>
            </a>
          ) : (
            <Link
              to={action.to}
              onClick={(event) => {
                if (action.kind !== "join") return;
                event.preventDefault();
                signIn.open("join campus");
              }}
              className={buttonClass("primary", "h-12 w-full px-8 text-base xs:w-auto")}
            >
              {action.label}
            </Link>
          )}
          {action.kind === "join" ? (
            <Link
              to="/search_schools"
              className="text-sm font-medium text-zinc-600 underline-offset-2 hover:underline"
            >
              or browse the schools
            </Link>
          ) : null}
        </div>
      </section>

      <section aria-labelledby="how-title" className="rounded-2xl border border-zinc-200 bg-white p-6 md:p-8">
        <h2 id="how-title" className="text-xl font-bold tracking-tight text-zinc-900">
          How it works
        </h2>
        <ol className="mt-5 grid gap-5 sm:grid-cols-3">
          {steps.map((step, index) => (
            <li key={step.title} className="flex gap-4 sm:flex-col sm:gap-3">
              <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
                <step.icon className="size-[22px]" />
              </span>
              <div>
                <h3 className="font-semibold text-zinc-900">
                  <span className="sr-only">Step {index + 1}: </span>
                  {step.title}
                </h3>
                <p className="mt-1 text-sm leading-relaxed text-zinc-600">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="faq-title" className="rounded-2xl border border-zinc-200 bg-white p-6 md:p-8">
        <h2 id="faq-title" className="text-xl font-bold tracking-tight text-zinc-900">
          Frequently asked questions
        </h2>
        <DisclosureList className="mt-4">
          <Disclosure summary="Is Campus Buy Sell affiliated with my school?">
            No. Campus Buy Sell is an independent student marketplace and is not affiliated with any school.
          </Disclosure>
          <Disclosure summary="Who can join?">
            Students and staff of a listed school. You need a .edu e-mail address from your school to join its
            community.
          </Disclosure>
          <Disclosure summary="My school isn't listed. Can you add it?">
            Probably! Send us a direct message on Instagram at{" "}
            <a
              href={socialUrl(social)}
              target="_blank"
              rel="noopener noreferrer"
              className="font-medium text-brand-700 underline underline-offset-2"
            >
              @{socialHandle(social)}
            </a>{" "}
            with the name of your school and we will look into adding it.
          </Disclosure>
        </DisclosureList>
      </section>
    </div>
  );
}
