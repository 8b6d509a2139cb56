import { createElement, type JSX } from "react";
import {
  BellIcon,
  BookmarkIcon,
  HomeIcon,
  type IconProps,
  MessageIcon,
  PlusIcon,
  SchoolIcon,
  SearchIcon,
  SettingsIcon,
  UserIcon,
} from "~/app/components/ui/icons";
import { propsWithout } from "~/app/components/ui/props";
import type { NavIconName } from "./nav-model";

const icons: Record<NavIconName, (props: IconProps) => JSX.Element> = {
  home: HomeIcon,
  search: SearchIcon,
  bell: BellIcon,
  message: MessageIcon,
  bookmark: BookmarkIcon,
  user: UserIcon,
  settings: SettingsIcon,
  school: SchoolIcon,
  plus: PlusIcon,
};

export function NavIcon(props: IconProps & { name: NavIconName }) {
  return createElement(icons[props.name], propsWithout(props, ["name"]));
}
