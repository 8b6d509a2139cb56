import { Avatar } from "~/app/components/ui/avatar";
import { ListLink } from "~/app/components/ui/list-link";
import type { PostSummary } from "~/server/posts/views";
import { PostAge } from "./post-age";
import { displayName } from "./post-format";

/**
 * spec 2 §2: 'A post of type "new user" renders as a "has joined the community"
 * banner' — '{First} {L.} has joined the community', with their picture and a way to their profile.
 */
export function NewUserBanner({ post }: { post: Pick<PostSummary, "author" | "createdAt"> }) {
  const name = displayName(post.author);
  return (
    <div className="flex items-center gap-3 rounded-2xl border border-brand-100 bg-gradient-to-r from-brand-50 to-white px-4 py-3">
      <ListLink
        to={`/${post.author.username}`}
        className="shrink-0 rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
      >
        <Avatar person={post.author} size="md" />
        <span className="sr-only">{name}</span>
      </ListLink>
      <p className="min-w-0 flex-1 text-[15px] text-zinc-700">
        <ListLink to={`/${post.author.username}`} className="font-semibold text-zinc-900 hover:underline">
          {name}
        </ListLink>{" "}
        has joined the community
      </p>
      <PostAge date={post.createdAt} className="shrink-0 text-sm text-zinc-500" />
    </div>
  );
}
