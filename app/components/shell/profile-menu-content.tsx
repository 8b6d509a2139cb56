// The header's profile dropdown's items (./profile-menu.tsx loads them on first use).
import type { ReactNode } from "react";
import { Link, useNavigate, useSubmit } from "react-router";
import { GOOGLE_NOT_CONFIGURED } from "~/app/components/auth/google-button";
import { GoogleIcon } from "~/app/components/auth/google-icon";
import { Avatar } from "~/app/components/ui/avatar";
import { buttonClass } from "~/app/components/ui/button";
import { useDropdownMenu } from "~/app/components/ui/deferred-menu";
import { BookmarkIcon, LogOutIcon, MailIcon, MegaphoneIcon, SettingsIcon } from "~/app/components/ui/icons";
import { useToast } from "~/app/components/ui/toaster";
import { useRootData } from "~/app/lib/root-data";

const contentClass =
  "menu-content z-50 w-[min(18rem,calc(100vw-1.5rem))] rounded-2xl border border-zinc-200 bg-white p-2 shadow-xl";
const itemClass =
  "flex w-full cursor-pointer items-center gap-3 rounded-xl px-3 py-2.5 text-[15px] font-medium text-zinc-800 outline-none select-none data-[highlighted]:bg-zinc-100 data-[highlighted]:text-zinc-950";

function MenuLink({ to, icon, children }: { to: string; icon: ReactNode; children: ReactNode }) {
  const DropdownMenu = useDropdownMenu();
  return (
    <DropdownMenu.Item asChild className={itemClass}>
      <Link to={to}>
        <span className="text-zinc-500">{icon}</span>
        {children}
      </Link>
    </DropdownMenu.Item>
  );
}

/** The menu: the account's links signed in, the ways to sign in for a visitor. */
export default function ProfileMenuContent() {
  const DropdownMenu = useDropdownMenu();
  const { viewer, googleConfigured, geoBlocked } = useRootData();
  const toast = useToast();
  const navigate = useNavigate();
  const submit = useSubmit();
  return (
    // Not portalled: the menu stays inside the header landmark (the header is sticky at the
    // viewport's top-left, so the popper's fixed coordinates still hold).
    <DropdownMenu.Content align="end" sideOffset={8} collisionPadding={12} className={contentClass}>
      {viewer ? (
        <>
          <DropdownMenu.Item asChild className={itemClass}>
            <Link to="/profile">
              <Avatar person={viewer} size="md" />
              <span className="flex min-w-0 flex-col">
                <span className="truncate font-semibold text-zinc-900">
                  {viewer.firstName} {viewer.lastName}
                </span>
                <span className="truncate text-sm font-normal text-zinc-500">@{viewer.username}</span>
              </span>
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="my-1.5 h-px bg-zinc-200" />
          <MenuLink to="/saved" icon={<BookmarkIcon className="size-5" />}>
            My Saved
          </MenuLink>
          <MenuLink to="/settings" icon={<SettingsIcon className="size-5" />}>
            Settings
          </MenuLink>
          <MenuLink to="/ads" icon={<MegaphoneIcon className="size-5" />}>
            Manage Ads
          </MenuLink>
          <DropdownMenu.Separator className="my-1.5 h-px bg-zinc-200" />
          <MenuLink to="/logout" icon={<LogOutIcon className="size-5" />}>
            Log Out
          </MenuLink>
        </>
      ) : (
        <div className="flex flex-col gap-2 p-2">
          {/* A menu may only own items, so the heading is a menu label rather than an <h2>. */}
          <DropdownMenu.Label className="text-lg font-bold text-zinc-900">
            Log In / Sign Up
          </DropdownMenu.Label>
          <p className="-mt-1.5 mb-1 text-sm text-zinc-600">Takes less than a few seconds.</p>
          <DropdownMenu.Item
            className={buttonClass(
              "secondary",
              "w-full cursor-pointer outline-none data-[highlighted]:bg-zinc-100 data-[highlighted]:outline-2 data-[highlighted]:outline-brand-600",
            )}
            onSelect={() => {
              // spec 1 §2: the sign-in dropdown leads to /404 for a visitor the geo gate keeps out.
              if (geoBlocked) navigate("/404");
              // Starts the Google sign-in right away (the auth landing's action, decision 0061).
              else if (googleConfigured)
                submit({ intent: "sign-in-google" }, { method: "post", action: "/user_registration" });
              else toast.show({ message: GOOGLE_NOT_CONFIGURED, type: "black" });
            }}
          >
            <GoogleIcon />
            Continue with Google
          </DropdownMenu.Item>
          <DropdownMenu.Item asChild>
            <Link
              to={geoBlocked ? "/404" : "/user_registration"}
              className={buttonClass(
                "primary",
                "w-full outline-none data-[highlighted]:bg-brand-700 data-[highlighted]:outline-2 data-[highlighted]:outline-offset-2 data-[highlighted]:outline-brand-600",
              )}
            >
              <MailIcon className="size-[18px]" />
              Continue with Email
            </Link>
          </DropdownMenu.Item>
        </div>
      )}
    </DropdownMenu.Content>
  );
}
