import { Link } from "react-router";
import { useSignInModal } from "~/app/components/auth/sign-in-modal";
import { buttonClass } from "~/app/components/ui/button";
import { ShieldIcon } from "~/app/components/ui/icons";

/** The gate itself: 'This community is private' with 'Click to Join' (the sign-in modal). */
export function PrivateCommunityGate({
  campus,
}: {
  campus: { name: string; school: string | null; logo: string | null };
}) {
  const signIn = useSignInModal();
  return (
    <section
      aria-labelledby="private-title"
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
