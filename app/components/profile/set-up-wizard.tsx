import {
  type MouseEvent,
  type ReactNode,
  type Ref,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
} from "react";
import { Link, useFetcher } from "react-router";
import { Button, buttonClass } from "~/app/components/ui/button";
import { Modal } from "~/app/components/ui/modal";
import { useToast } from "~/app/components/ui/toaster";
import { useHydrated, useTextTypedBeforeHydration } from "~/app/lib/hydrated";
import type { ProfileActionData } from "~/app/routes/profile/profile-action.server";
import { missingProfileParts, type ProfilePart } from "~/server/accounts/gates.shared";
import { MAX_BIO_LENGTH } from "~/server/profiles/schemas.shared";
import { PhotoPicker } from "./photo-picker";
import { finishLabel, originAction, setUpHref, type WizardStep } from "./set-up-origin";

/** What the wizard shows and edits; the /profile/set-up loader returns it. */
export interface SetUpData {
  firstName: string;
  lastName: string;
  img: string | null;
  bio: string | null;
  /** spec 1 §4: both a photo and a bio existed once (the posting gate reads it). */
  profileSetUp: boolean;
}

export const SET_UP_PATH = "/profile/set-up";

interface SetUpWizardProps {
  data: SetUpData;
  /** spec 1 §2: the `goBack` query (and `postId` for comments). */
  origin: string | null;
  postId: string | null;
  initialStep?: WizardStep;
  /** 'Go Back' on the first step. */
  onBack(): void;
  /** The last step's button ('Continue Posting', 'Back to Home'…). */
  onFinish(): void;
  /** Where step 1's 'Go Back' and the last button lead without JavaScript. */
  fallbackHref: string;
  /**
   * 'Not now' on a last step that cannot go on to post (decision 0448): somewhere that does not ask for
   * the profile again. `laterHref` is the link without JavaScript.
   */
  onLater(): void;
  laterHref: string;
}

/** How the incomplete last step names each missing part (decision 0448). */
const PART_WORDS: Record<ProfilePart, { noun: string; add: string; step: WizardStep }> = {
  photo: { noun: "a profile picture", add: "Add a picture", step: 1 },
  bio: { noun: "a bio", add: "Add a bio", step: 2 },
};

/** Turns a link into a button once JavaScript runs; without it the link is followed. */
function intercept(action: () => void) {
  return (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    action();
  };
}

function prefersReducedMotion(): boolean {
  return typeof window !== "undefined" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function Step({
  active,
  title,
  headingRef,
  children,
}: {
  active: boolean;
  title: string;
  headingRef?: Ref<HTMLHeadingElement>;
  children: ReactNode;
}) {
  return (
    // Only the shown step is named: a hidden one is out of reach anyway, and its name (the last
    // step's can say 'bio') must not pass for the label of a field on the shown one.
    <section hidden={!active} aria-label={active ? title : undefined} className="flex flex-col gap-6">
      <h2 ref={headingRef} tabIndex={-1} className="text-center text-xl font-bold text-zinc-900 outline-none">
        {title}
      </h2>
      {children}
    </section>
  );
}

/**
 * The profile set-up wizard (spec 1 §2 'Profile set-up wizard'): pick a profile
 * picture, describe yourself, finished. Used by the /profile/set-up page and, in
 * a Modal, by SetUpWizardModal below (the posting flow opens it on wide screens).
 * Steps slide in (not with prefers-reduced-motion); every step also has an
 * address, so the page works before JavaScript loads.
 */
export function SetUpWizard({
  data,
  origin,
  postId,
  initialStep = 1,
  onBack,
  onFinish,
  fallbackHref,
  onLater,
  laterHref,
}: SetUpWizardProps) {
  const hydrated = useHydrated();
  const toast = useToast();
  const bioFetcher = useFetcher<ProfileActionData>();
  const [step, setStep] = useState<WizardStep>(initialStep);
  const [img, setImg] = useState(data.img);
  const [storedBio, setStoredBio] = useState(data.bio ?? "");
  const bioId = useId();
  // A bio typed before the script ran is where the wizard starts, not the stored one.
  const typedBio = useTextTypedBeforeHydration(bioId);
  const [bio, setBio] = useState(typedBio ?? data.bio ?? "");
  const panel = useRef<HTMLDivElement>(null);
  const headings = useRef<(HTMLHeadingElement | null)[]>([]);
  const shown = useRef<WizardStep>(initialStep);
  const moved = useRef(false);

  // The loaders revalidate after each save: follow what the server holds.
  useEffect(() => setImg(data.img), [data.img]);
  useEffect(() => setStoredBio(data.bio ?? ""), [data.bio]);
  useEffect(() => setStep(initialStep), [initialStep]);

  const go = useCallback((next: WizardStep) => {
    moved.current = true;
    setStep(next);
  }, []);

  // Slide the new step in and move focus to its heading (only after the user moved).
  useEffect(() => {
    const direction = step > shown.current ? 1 : -1;
    shown.current = step;
    if (!moved.current) return;
    headings.current[step - 1]?.focus();
    if (prefersReducedMotion()) return;
    panel.current?.animate(
      [
        { transform: `translateX(${direction * 48}px)`, opacity: 0 },
        { transform: "translateX(0)", opacity: 1 },
      ],
      { duration: 260, easing: "cubic-bezier(0.2, 0.9, 0.3, 1)" },
    );
  }, [step]);

  useEffect(() => {
    const result = bioFetcher.data;
    if (result?.intent !== "save-bio") return;
    if (result.toast) toast.show(result.toast);
    if (result.ok) {
      setStoredBio(result.bio ?? "");
      go(3);
    }
  }, [bioFetcher.data, toast, go]);

  const text = bio.trim();
  // spec 1 §2 step 2: Save when the text differs from the stored bio (and is not empty), else Next.
  const canSave = text !== "" && text !== storedBio.trim();
  const saving = bioFetcher.state !== "idle";
  const action = setUpHref(1, origin, postId);
  const linkClass = (variant: "primary" | "secondary") => buttonClass(variant, "min-w-28");

  // Decision 0448: the last step asks the posting gate's own rule (server/accounts/gates.shared.ts) what the
  // profile still lacks, and whether what the user came to do will work, instead of calling every
  // profile finished. What the page holds now counts: a photo just uploaded, a bio just saved.
  const profileNow = { profileSetUp: data.profileSetUp, img, bio: storedBio };
  const missing = missingProfileParts(profileNow, "post");
  const next = originAction(origin);
  const canGoOn = next === null || missingProfileParts(profileNow, next).length === 0;
  const firstMissing = missing[0] ? PART_WORDS[missing[0]] : null;
  const missingWords = missing.map((part) => PART_WORDS[part].noun).join(" and ");

  return (
    <div ref={panel}>
      <p className="sr-only">Step {step} of 3</p>
      <div aria-hidden="true" className="mb-6 flex justify-center gap-2">
        {[1, 2, 3].map((n) => (
          <span key={n} className={`h-1.5 w-8 rounded-full ${n <= step ? "bg-brand-600" : "bg-zinc-200"}`} />
        ))}
      </div>

      <Step
        active={step === 1}
        title="Pick a profile picture"
        headingRef={(element) => {
          headings.current[0] = element;
        }}
      >
        <PhotoPicker person={data} img={img} action={action} onUploaded={setImg} />
        <div className="flex justify-between gap-3">
          <Link to={fallbackHref} onClick={intercept(onBack)} className={linkClass("secondary")}>
            Go Back
          </Link>
          <Link
            to={setUpHref(2, origin, postId)}
            onClick={intercept(() => go(2))}
            className={linkClass(img ? "primary" : "secondary")}
          >
            {img ? "Next" : "Skip"}
          </Link>
        </div>
      </Step>

      <Step
        active={step === 2}
        title="Describe yourself"
        headingRef={(element) => {
          headings.current[1] = element;
        }}
      >
        <bioFetcher.Form method="post" action={action} className="flex flex-col gap-6">
          <input type="hidden" name="intent" value="save-bio" />
          <div className="flex flex-col gap-1">
            <label htmlFor={bioId} className="text-sm font-medium text-zinc-800">
              Bio
            </label>
            <textarea
              id={bioId}
              name="bio"
              rows={4}
              maxLength={MAX_BIO_LENGTH}
              value={bio}
              onChange={(event) => setBio(event.currentTarget.value)}
              placeholder="Year, major, what you buy and sell…"
              aria-describedby={`${bioId}-count`}
              className="resize-none rounded-lg border border-zinc-300 bg-white px-3 py-2.5 text-base text-zinc-900 outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-600/20"
            />
            <p id={`${bioId}-count`} className="self-end text-xs text-zinc-500 tabular-nums">
              {bio.length} / {MAX_BIO_LENGTH}
            </p>
          </div>
          <div className="flex justify-between gap-3">
            <Link
              to={setUpHref(1, origin, postId)}
              onClick={intercept(() => go(1))}
              className={linkClass("secondary")}
            >
              Go Back
            </Link>
            {hydrated ? (
              canSave ? (
                <Button type="submit" processing={saving} className="min-w-28">
                  Save
                </Button>
              ) : (
                <Link
                  to={setUpHref(3, origin, postId)}
                  onClick={intercept(() => go(3))}
                  className={linkClass("primary")}
                >
                  Next
                </Link>
              )
            ) : (
              // Without JavaScript the page cannot tell whether the text changed: offer both.
              <span className="flex gap-2">
                <Link to={setUpHref(3, origin, postId)} className={linkClass("secondary")}>
                  Next
                </Link>
                <button type="submit" className={linkClass("primary")}>
                  Save
                </button>
              </span>
            )}
          </div>
        </bioFetcher.Form>
      </Step>

      <Step
        active={step === 3}
        title={firstMissing ? `Your profile still needs ${missingWords}` : "Your profile is finished!"}
        headingRef={(element) => {
          headings.current[2] = element;
        }}
      >
        <div className="flex flex-col items-center gap-3 text-center">
          {img ? (
            <img src={img} alt="" width={480} height={480} className="size-20 rounded-full object-cover" />
          ) : null}
          {firstMissing ? (
            // spec 2 §5: posting needs a profile picture and a bio.
            <p className="text-sm text-zinc-600">
              To post, add {missingWords}. You can also add {missing.length > 1 ? "them" : "it"} later from
              Edit Profile.
            </p>
          ) : storedBio ? (
            <p className="text-sm text-zinc-600">{storedBio}</p>
          ) : null}
        </div>
        {firstMissing ? (
          <div className="flex flex-col gap-3">
            <Link
              to={setUpHref(firstMissing.step, origin, postId)}
              onClick={intercept(() => go(firstMissing.step))}
              className={buttonClass("primary", "w-full")}
            >
              {firstMissing.add}
            </Link>
            {canGoOn ? (
              <Link
                to={fallbackHref}
                onClick={intercept(onFinish)}
                className={buttonClass("secondary", "w-full")}
              >
                {finishLabel(origin)}
              </Link>
            ) : (
              <Link
                to={laterHref}
                onClick={intercept(onLater)}
                className={buttonClass("secondary", "w-full")}
              >
                Not now
              </Link>
            )}
          </div>
        ) : (
          <Link to={fallbackHref} onClick={intercept(onFinish)} className={buttonClass("primary", "w-full")}>
            {finishLabel(origin)}
          </Link>
        )}
      </Step>
    </div>
  );
}

interface SetUpWizardModalProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  origin: string | null;
  postId?: string | null;
  /** After the last step's button; the modal has closed by then. */
  onFinish?(): void;
}

/**
 * The wizard in the one Modal primitive, for wide screens (spec 1 §2: on screens
 * up to 769 px the page /profile/set-up is used instead). It loads what it
 * shows from the page's loader and posts to the page's action.
 */
export function SetUpWizardModal({
  open,
  onOpenChange,
  origin,
  postId = null,
  onFinish,
}: SetUpWizardModalProps) {
  const loader = useFetcher<{ profile: SetUpData }>();
  const load = loader.load;
  const loaded = loader.data !== undefined;
  useEffect(() => {
    if (open && !loaded) void load(SET_UP_PATH);
  }, [open, loaded, load]);

  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Set up your profile">
      {loader.data ? (
        <SetUpWizard
          data={loader.data.profile}
          origin={origin}
          postId={postId}
          fallbackHref={SET_UP_PATH}
          onBack={() => onOpenChange(false)}
          // Closing leaves the user where the posting flow found them; it does not go on to post.
          onLater={() => onOpenChange(false)}
          laterHref={SET_UP_PATH}
          onFinish={() => {
            onOpenChange(false);
            onFinish?.();
          }}
        />
      ) : (
        <p role="status" className="py-8 text-center text-sm text-zinc-500">
          Loading…
        </p>
      )}
    </Modal>
  );
}
