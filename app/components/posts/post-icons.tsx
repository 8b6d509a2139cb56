import { lineIcons } from "~/app/components/ui/icons";
import postLineIconDrawings from "~/app/components/ui/post-line-icons.json";

/**
 * Line icons the post screens need beyond app/components/ui/icons.tsx, in the
 * same style (24 × 24, stroke 2, Lucide's shapes). Decorative: the control around
 * each carries the accessible name.
 */
export const {
  CommentIcon,
  TrashIcon,
  ReplyIcon,
  RocketIcon,
  ChevronDownIcon,
  TagIcon,
  PlayIcon,
  BookmarkFilledIcon,
} = lineIcons(postLineIconDrawings);
