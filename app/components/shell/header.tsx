import { ListLink } from "~/app/components/ui/list-link";
import { hydratedLater } from "~/app/lib/lazy-load";
import { useRootData } from "~/app/lib/root-data";
import { campusBrand } from "./campus";
import { useScrollHomeToTop } from "./use-home-link";

// Decision 0370: the search box's combobox and the profile menu hydrate from chunks of their own.
const SearchBox = hydratedLater(() => import("./search-box").then((module) => module.SearchBox));
const ProfileMenu = hydratedLater(() => import("./profile-menu").then((module) => module.ProfileMenu));

/**
 * The top bar: campus logo and name (→ /home), the search box, the profile
 * dropdown. Its three parts line up with the side navigation, the main column
 * and the right-hand widget below them.
 */
export function Header() {
  const { campus } = useRootData();
  const onHome = useScrollHomeToTop();
  const brand = campusBrand(campus);
  return (
    <header className="sticky top-0 z-40 border-b border-zinc-200 bg-white/95 backdrop-blur-md supports-[backdrop-filter]:bg-white/85">
      <div className="relative mx-auto flex h-14 w-full max-w-[1280px] items-center gap-3 px-3 md:h-16 md:gap-0 md:px-0">
        {/* Same widths as the side navigation below, so the logo sits over the icons. */}
        <div className="flex shrink-0 md:w-[76px] md:justify-center lg:w-[244px] lg:justify-start lg:pl-5">
          <ListLink
            to="/home"
            onClick={onHome}
            className="flex items-center gap-2.5 rounded-xl p-0.5 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
          >
            {campus.logo ? (
              <img src={campus.logo} alt="" width={36} height={36} className="size-9 shrink-0 rounded-lg" />
            ) : null}
            <span className="sr-only text-[17px] font-extrabold tracking-tight text-zinc-900 lg:not-sr-only">
              {brand}
            </span>
          </ListLink>
        </div>
        {/*
          Centred on the main column's axis; below 1171 px the profile menu floats at the
          right edge, so the box leaves room for it on both sides to stay centred.
        */}
        <div className="min-w-0 flex-1 md:px-4">
          <div className="mx-auto w-full md:max-w-[min(600px,calc(100%-7.5rem))] xl:max-w-[600px]">
            <SearchBox campus={campus} />
          </div>
        </div>
        <div className="flex shrink-0 justify-end md:absolute md:top-1/2 md:right-4 md:-translate-y-1/2 xl:static xl:w-[340px] xl:translate-y-0 xl:pr-4">
          <ProfileMenu />
        </div>
      </div>
    </header>
  );
}
