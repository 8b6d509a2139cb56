import { lazy, type ReactNode, Suspense, useCallback, useEffect, useMemo, useState } from "react";
import { useNavigate } from "react-router";
import { useSignInModal } from "~/app/components/auth/sign-in-modal";
import { preloadWhenIdle, useOnceTrue } from "~/app/lib/lazy-load";
import { useRootData } from "~/app/lib/root-data";
import { isWideScreen } from "~/app/lib/wide-screen";
import { type ParticipationRefusal, participationRefusal } from "~/server/accounts/gates.shared";
import {
  type ComposerApi,
  ComposerContext,
  type OpenPostComposerOptions,
  type RefusalOrigin,
} from "./composer-context";
import {
  type ComposerGoBack,
  createPostHref,
  goBackFromPath,
  parseGoBack,
  schoolPromptHref,
  setUpHrefFor,
  setUpOriginFor,
} from "./composer-targets";

// Decision 0340: the composer (Lexical, the post schemas) and the set-up wizard are not part of a
// page's first load: they come when the browser is idle, or on first use, whichever is sooner.
export const loadPostComposer = () => import("./post-composer");
const PostComposer = lazy(() => loadPostComposer().then((module) => ({ default: module.PostComposer })));
const loadGateModals = () => import("./post-gate-modals");
const SchoolPromptModal = lazy(() =>
  loadGateModals().then((module) => ({ default: module.SchoolPromptModal })),
);
const ProfileIncompleteModal = lazy(() =>
  loadGateModals().then((module) => ({ default: module.ProfileIncompleteModal })),
);
const SetUpWizardModal = lazy(() =>
  import("~/app/components/profile/set-up-wizard").then((module) => ({ default: module.SetUpWizardModal })),
);

// The provider: the post composer's modal and the prompts that stand before posting.

type Gate =
  | { kind: "school" }
  | { kind: "profile"; origin: string; postId: string | null; goBack: ComposerGoBack }
  | { kind: "wizard"; origin: string; postId: string | null; goBack: ComposerGoBack };

/** Wraps the app (app/root.tsx): holds the post composer's modal and the posting prompts. */
export function ComposerProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const signIn = useSignInModal();
  const { viewer, campus } = useRootData();
  const [postModal, setPostModal] = useState<{ goBack: ComposerGoBack; key: number } | null>(null);
  const [gate, setGate] = useState<Gate | null>(null);
  const schoolPromptUsed = useOnceTrue(gate?.kind === "school");
  const profilePromptUsed = useOnceTrue(gate?.kind === "profile");
  const wizardUsed = useOnceTrue(gate?.kind === "wizard");
  const signedIn = viewer !== null;
  // Only a member can open the composer: a visitor's page does not fetch it.
  useEffect(() => {
    if (signedIn) preloadWhenIdle(loadPostComposer);
  }, [signedIn]);

  const showRefusal = useCallback(
    (refusal: ParticipationRefusal, origin: RefusalOrigin = {}) => {
      const goBack = origin.goBack ?? "home";
      switch (refusal.kind) {
        case "sign-in":
          signIn.open(refusal.reason);
          return;
        case "verify-email":
          navigate("/verify");
          return;
        case "verify-school":
          setGate({ kind: "school" });
          return;
        case "profile-incomplete":
          setGate({
            kind: "profile",
            origin: origin.postId ? "comment" : setUpOriginFor(goBack),
            postId: origin.postId ?? null,
            goBack,
          });
          return;
      }
    },
    [navigate, signIn],
  );

  const openPostComposer = useCallback(
    (options: OpenPostComposerOptions = {}) => {
      const goBack = options.goBack ? parseGoBack(options.goBack) : goBackFromPath(window.location.pathname);
      // spec 2 §5: prompts come before the user starts typing (the server checks again on send).
      const refusal = participationRefusal(viewer, "post");
      if (refusal) {
        showRefusal(refusal, { goBack });
        return;
      }
      if (isWideScreen()) setPostModal({ goBack, key: Date.now() });
      else navigate(createPostHref(goBack));
    },
    [viewer, navigate, showRefusal],
  );

  const api = useMemo<ComposerApi>(
    () => ({ openPostComposer, showRefusal }),
    [openPostComposer, showRefusal],
  );

  return (
    <ComposerContext.Provider value={api}>
      {children}
      {postModal ? (
        <Suspense fallback={null}>
          <PostComposer
            key={postModal.key}
            variant="modal"
            goBack={postModal.goBack}
            onDone={() => setPostModal(null)}
          />
        </Suspense>
      ) : null}
      {schoolPromptUsed ? (
        <Suspense fallback={null}>
          <SchoolPromptModal
            open={gate?.kind === "school"}
            onOpenChange={(open) => {
              if (!open) setGate(null);
            }}
            href={schoolPromptHref(viewer?.campusId ?? campus.id, campus.generic)}
          />
        </Suspense>
      ) : null}
      {profilePromptUsed ? (
        <Suspense fallback={null}>
          <ProfileIncompleteModal
            open={gate?.kind === "profile"}
            onOpenChange={(open) => {
              if (!open) setGate(null);
            }}
            setUpHref={gate?.kind === "profile" ? setUpHrefFor(gate.origin, gate.postId) : "/profile/set-up"}
            onSetUp={() => {
              if (gate?.kind !== "profile") return;
              // spec 1 §2: the wizard is a modal on wide screens, the page /profile/set-up at 769 px and below.
              if (isWideScreen()) {
                setGate({ ...gate, kind: "wizard" });
              } else {
                setGate(null);
                navigate(setUpHrefFor(gate.origin, gate.postId));
              }
            }}
          />
        </Suspense>
      ) : null}
      {wizardUsed ? (
        <Suspense fallback={null}>
          <SetUpWizardModal
            open={gate?.kind === "wizard"}
            onOpenChange={(open) => {
              if (!open) setGate(null);
            }}
            origin={gate?.kind === "wizard" ? gate.origin : null}
            postId={gate?.kind === "wizard" ? gate.postId : null}
            onFinish={() => {
              // 'Continue Posting': back to the composer the profile modal stood before.
              if (gate?.kind === "wizard" && !gate.postId)
                setPostModal({ goBack: gate.goBack, key: Date.now() });
              setGate(null);
            }}
          />
        </Suspense>
      ) : null}
    </ComposerContext.Provider>
  );
}
