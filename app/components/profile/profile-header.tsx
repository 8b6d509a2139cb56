import { Link } from "react-router";
import { newMessageHref, useSendMessage } from "~/app/components/chats/send-message-button";
import { initialsOf } from "~/app/components/ui/avatar";
import { buttonClass } from "~/app/components/ui/button";
import { BadgeCheckIcon, MessageIcon } from "~/app/components/ui/icons";
import type { StudentBadge } from "~/server/accounts/badge.shared";
import { MAX_BIO_LENGTH } from "~/server/profiles/schemas.shared";
import { ProfileActionsMenu } from "./profile-actions-menu";

export interface ProfileHeaderProps {
  profile: {
    id: string;
    username: string;
    firstName: string;
    lastName: string;
    bio: string | null;
    /** Decision 0680: the badge as the server read it now. */
    badge: StudentBadge | null;
    verified: boolean;
    profileSetUp: boolean;
    totalPosts: number;
  };
  /** The large photo, or null. */
  photo: string | null;
  own: boolean;
  /** Decision 0230: the viewer blocked this person. */
  blocked?: boolean;
  signedIn: boolean;
  profileUrl: string;
}

/**
 * The profile header (spec 1 §2 'Profile page'): photo, name, verified badge,
 * post count, bio; 'Edit Profile' or 'Set up profile' on one's own profile,
 * 'Send Message' on others', and the menu.
 */
export function ProfileHeader({
  profile,
  photo,
  own,
  blocked = false,
  signedIn,
  profileUrl,
}: ProfileHeaderProps) {
  const name = `${profile.firstName} ${profile.lastName}`;
  return (
    <div className="px-4 pt-3 pb-5 sm:px-6">
      <div className="flex items-end justify-between gap-3">
        {photo ? (
          <img
            src={photo}
            alt={name}
            width={480}
            height={480}
            className="-mt-13 size-20 shrink-0 rounded-full bg-white object-cover ring-4 ring-white sm:-mt-15 sm:size-24"
          />
        ) : (
          <span
            role="img"
            aria-label={`${name} has no profile picture`}
            className="-mt-13 inline-flex size-20 shrink-0 items-center justify-center rounded-full bg-brand-100 text-2xl font-semibold text-brand-700 ring-4 ring-white sm:-mt-15 sm:size-24 sm:text-3xl"
          >
            {initialsOf(profile.firstName, profile.lastName)}
          </span>
        )}
        <div className="flex items-center gap-2">
          {own ? (
            <Link
              to={profile.profileSetUp ? "/profile/edit" : "/profile/set-up?goBack=profile"}
              className={buttonClass("secondary", "h-10 px-4")}
            >
              {profile.profileSetUp ? "Edit Profile" : "Set up profile"}
            </Link>
          ) : (
            <SendMessageLink username={profile.username} signedIn={signedIn} />
          )}
          <ProfileActionsMenu
            profileId={profile.id}
            username={profile.username}
            firstName={profile.firstName}
            profileUrl={profileUrl}
            own={own}
            blocked={blocked}
            claimable={!profile.verified}
            signedIn={signedIn}
          />
        </div>
      </div>

      <h1 className="mt-3 flex items-center gap-1.5 text-xl font-extrabold tracking-tight text-zinc-950 sm:text-2xl">
        <span className="min-w-0 break-words">{name}</span>
        {profile.badge ? (
          <span title={profile.badge.label} className="inline-flex shrink-0 text-sky-600">
            <BadgeCheckIcon className="size-5 sm:size-6" />
          </span>
        ) : null}
      </h1>
      <p className="text-[15px] text-zinc-500">@{profile.username}</p>
      {profile.badge ? (
        // Decision 0680: what the badge says, in words: 'Verified student · Class of 2027', 'Alum'.
        <p className="mt-1.5">
          <span className="profile-badge inline-flex items-center gap-1 rounded-full bg-sky-50 px-2.5 py-0.5 text-sm font-semibold text-sky-800">
            <BadgeCheckIcon className="size-4" />
            {profile.badge.label}
          </span>
        </p>
      ) : null}
      {profile.bio ? (
        // spec 1 §5: the bio display is also cut at 160 characters.
        <p className="mt-3 text-[15px] whitespace-pre-line break-words text-zinc-800">
          {profile.bio.slice(0, MAX_BIO_LENGTH)}
        </p>
      ) : null}
      <p className="mt-3 text-sm text-zinc-600">
        <strong className="font-bold text-zinc-900 tabular-nums">{profile.totalPosts}</strong>{" "}
        {profile.totalPosts === 1 ? "Post" : "Posts"}
      </p>
    </div>
  );
}

/** spec 1 §2 'Profile page': 'Send Message' on others' profiles (spec 2 §5 gates in useSendMessage). */
function SendMessageLink({ username, signedIn }: { username: string; signedIn: boolean }) {
  const sendMessage = useSendMessage();
  return (
    <>
      <Link
        to={signedIn ? newMessageHref(username) : "/user_registration"}
        onClick={(event) => {
          if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
          event.preventDefault();
          sendMessage.start(username);
        }}
        className={buttonClass("primary", "h-10 px-4")}
      >
        <MessageIcon className="size-[18px]" />
        Send Message
      </Link>
      {sendMessage.prompt}
    </>
  );
}
