import { createElement, type ReactElement, type SVGProps } from "react";
import lineIconDrawings from "~/app/components/ui/line-icons.json";
import postLineIconDrawings from "~/app/components/ui/post-line-icons.json";
import { propsWithout } from "./props";

/**
 * The app's line icons (24 × 24, stroke 2, after Lucide's shapes). They are
 * decorative: the link or button around them carries the accessible name.
 */
export type IconProps = SVGProps<SVGSVGElement>;

/**
 * The frame every line icon shares; other icon sets build on it. The stroke
 * style comes from the `icon` class (app.css) rather than five attributes on
 * every one of the dozens of icons a feed page holds; a stroke width given as a
 * prop still wins (inline style).
 */
export function Icon(props: IconProps) {
  const { className, strokeWidth, style } = props;
  // Built by a loop, not spread: dozens of icons a page (app/components/ui/props.ts).
  const svg: Record<string, unknown> = {
    viewBox: "0 0 24 24",
    width: "24",
    height: "24",
    "aria-hidden": "true",
  };
  svg.className = className ? `icon ${className}` : "icon";
  if (strokeWidth !== undefined) svg.style = { ...style, strokeWidth };
  else if (style !== undefined) svg.style = style;
  Object.assign(svg, propsWithout(props, ICON_PROPS));
  return createElement("svg", svg);
}

/** Icon's own props, turned into the class and style above. */
const ICON_PROPS = ["className", "strokeWidth", "style"] as const;

/** One shape of a line icon: a path (`d`), a circle (`cx`, `cy`, `r`) or a rounded rectangle. */
export interface IconShape {
  d?: string;
  cx?: string;
  cy?: string;
  r?: string;
  x?: string;
  y?: string;
  width?: string;
  height?: string;
  rx?: string;
  fill?: string;
}

function shapeElement(shape: IconShape, key: number) {
  if (shape.d !== undefined) return <path key={key} d={shape.d} fill={shape.fill} />;
  if (shape.cx !== undefined)
    return <circle key={key} cx={shape.cx} cy={shape.cy} r={shape.r} fill={shape.fill} />;
  return <rect key={key} x={shape.x} y={shape.y} width={shape.width} height={shape.height} rx={shape.rx} />;
}

/**
 * The icons every post card repeats (Comment, Save, Saved!, Share, the category's tag, the
 * verified badge): drawn once per page in IconSprite, and each use is a `<use>` of it
 * (decision 0353: a feed page held 91 inline drawings).
 */
const SPRITE_ICONS: ReadonlySet<string> = new Set([
  "Comment",
  "Bookmark",
  "BookmarkFilled",
  "Share",
  "Tag",
  "BadgeCheck",
]);

const spriteId = (name: string) => `icon-${name}`;

/**
 * A set of line icons from their drawings (a JSON file of shapes per icon, so an icon is data
 * and every one is the same component, Icon): the entry `Home` gives `HomeIcon`.
 */
export function lineIcons<Name extends string>(drawings: Record<Name, readonly IconShape[]>) {
  const icons = {} as Record<`${Name}Icon`, (props: IconProps) => ReactElement>;
  for (const name of Object.keys(drawings) as Name[]) {
    const shapes = drawings[name];
    icons[`${name}Icon`] = SPRITE_ICONS.has(name)
      ? (props: IconProps) => createElement(Icon, props, <use href={`#${spriteId(name)}`} />)
      : (props: IconProps) => createElement(Icon, props, ...shapes.map(shapeElement));
  }
  return icons;
}

/** The drawings of the sprite's icons, once per page (the root layout renders it first in the body). */
export function IconSprite() {
  const drawings = { ...lineIconDrawings, ...postLineIconDrawings } as Record<string, readonly IconShape[]>;
  return (
    <svg aria-hidden="true" width="0" height="0" className="absolute">
      <defs>
        {[...SPRITE_ICONS].map((name) => (
          <symbol key={name} id={spriteId(name)} viewBox="0 0 24 24">
            {(drawings[name] ?? []).map(shapeElement)}
          </symbol>
        ))}
      </defs>
    </svg>
  );
}

/** The app's line icons, drawn in line-icons.json. */
export const {
  HomeIcon,
  SearchIcon,
  BellIcon,
  MessageIcon,
  BookmarkIcon,
  SettingsIcon,
  PlusIcon,
  UserIcon,
  UsersIcon,
  MapPinIcon,
  SchoolIcon,
  ArrowLeftIcon,
  ChevronRightIcon,
  MailIcon,
  InstagramIcon,
  LinkIcon,
  CheckIcon,
  CloseIcon,
  ShareIcon,
  LogOutIcon,
  MegaphoneIcon,
  ShieldIcon,
  BadgeCheckIcon,
  ExternalLinkIcon,
  FlagIcon,
  MoreIcon,
} = lineIcons(lineIconDrawings);
