import { profilePhotoSizes } from "~/server/media/limits.shared";
import { UserIcon } from "./icons";

const sizes = {
  sm: "size-8 text-xs",
  md: "size-10 text-sm",
  lg: "size-14 text-lg",
} as const;

/** Initials shown when a user has no photo yet: first letters of first and last name. */
export function initialsOf(firstName: string, lastName: string): string {
  return `${firstName.trim().charAt(0)}${lastName.trim().charAt(0)}`.toUpperCase();
}

interface AvatarProps {
  /** The person; null draws the anonymous silhouette (signed-out visitors). */
  person: { firstName: string; lastName: string; img: string | null } | null;
  size?: keyof typeof sizes;
  className?: string;
}

/** A round profile picture, or initials, or a silhouette. Decorative: the surrounding control names the person. */
export function Avatar({ person, size = "md", className = "" }: AvatarProps) {
  const box = className ? `avatar ${sizes[size]} ${className}` : `avatar ${sizes[size]}`;
  const photo = profilePhotoSizes(person?.img ?? null);
  if (photo) {
    // The 160 px square is sharp up to 80 CSS px at 2x; bigger avatars take the 480 px one.
    return (
      <img
        src={photo.small}
        srcSet={photo.small === photo.large ? undefined : `${photo.small} 160w, ${photo.large} 480w`}
        sizes={size === "lg" ? "56px" : "40px"}
        alt=""
        loading="lazy"
        decoding="async"
        className={`${box} object-cover`}
      />
    );
  }
  if (person) {
    // Drawn by CSS from the attribute, not written as text: the controls an avatar sits in are
    // named by the person's name, and initials as text would be visible text missing from that
    // name (WCAG 2.5.3 label in name; decision 0475, the account menu of a student without a photo).
    return (
      <span
        aria-hidden="true"
        data-initials={initialsOf(person.firstName, person.lastName)}
        className={`${box} bg-brand-100 font-semibold text-brand-700 before:content-[attr(data-initials)]`}
      />
    );
  }
  return (
    <span aria-hidden="true" className={`${box} bg-zinc-200 text-zinc-500`}>
      <UserIcon className="size-3/5" />
    </span>
  );
}
