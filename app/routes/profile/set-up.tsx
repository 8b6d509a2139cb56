import { redirect, useLocation, useNavigate } from "react-router";
import { z } from "zod";
import { AuthCard } from "~/app/components/auth/auth-card";
import { closeTarget, parseStep, type WizardStep } from "~/app/components/profile/set-up-origin";
import { SetUpWizard } from "~/app/components/profile/set-up-wizard";
import { pageTitle } from "~/app/components/shell/campus";
import type { ShellHandle } from "~/app/components/shell/shell";
import { NoScriptMessage } from "~/app/components/ui/action-feedback";
import { readIntent } from "~/app/lib/form.server";
import { backStep, loadHistory, saveHistory } from "~/app/lib/navigation-history";
import { requireUser } from "~/app/lib/viewer.server";
import {
  type ProfileActionData,
  saveBio,
  uploadPhoto,
  withProfileForm,
} from "~/app/routes/profile/profile-action.server";
import { getProfileById } from "~/server/profiles/profiles";
import type { Route } from "./+types/set-up";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export const handle = { shell: "bare" } satisfies ShellHandle;

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Set up your profile", matches[0]?.loaderData?.campus) }];
}

/** /profile/set-up (protected; query goBack, postId for comments, step): spec 1 §2 'Profile set-up wizard'. */
export async function loader(args: Route.LoaderArgs) {
  const viewer = await requireUser(args);
  const profile = await getProfileById(args.context.app, viewer.id);
  if (!profile) throw redirect("/");
  const query = new URL(args.request.url).searchParams;
  return {
    profile: {
      firstName: profile.firstName,
      lastName: profile.lastName,
      img: profile.img,
      bio: profile.bio,
      profileSetUp: profile.profileSetUp,
    },
    origin: query.get("goBack"),
    postId: query.get("postId"),
    step: parseStep(query.get("step")),
  };
}

const SetUpIntent = z.enum(["upload-photo", "save-bio"]);

/** intent 'upload-photo' (multipart, field `photo`) or 'save-bio' (field `bio`). */
export async function action(args: Route.ActionArgs) {
  const viewer = await requireUser(args);
  const { app } = args.context;
  return withProfileForm(app, args.request, async (form) => {
    // Each step names its form; an unknown one is a 400 from readIntent.
    return readIntent(form, SetUpIntent) === "upload-photo"
      ? uploadPhoto(app, viewer, form)
      : saveBio(app, viewer, form);
  });
}

/** Without JavaScript the forms post here: the step follows from what was saved. */
function stepAfter(result: ProfileActionData | undefined, fallback: WizardStep): WizardStep {
  if (result?.intent === "save-bio") return result.ok ? 3 : 2;
  if (result?.intent === "upload-photo") return 1;
  return fallback;
}

export default function SetUp({ loaderData, actionData }: Route.ComponentProps) {
  const navigate = useNavigate();
  const location = useLocation();
  const { profile, origin, postId } = loaderData;
  const target = closeTarget(origin, postId);

  // spec 1 §2: closing returns to the origin, otherwise to the previous page (navigation memory).
  function leave() {
    if (target) {
      navigate(target);
      return;
    }
    const back = backStep(loadHistory(), `${location.pathname}${location.search}`);
    saveHistory(back.history);
    navigate(back.target);
  }

  return (
    <AuthCard title="Set up your profile">
      <NoScriptMessage toast={actionData?.toast} />
      <SetUpWizard
        data={profile}
        origin={origin}
        postId={postId}
        initialStep={stepAfter(actionData, loaderData.step)}
        fallbackHref={target ?? "/home"}
        onBack={leave}
        onFinish={leave}
        // Decision 0448: going back to the composer would only ask for the profile again.
        laterHref="/home"
        onLater={() => navigate("/home")}
      />
    </AuthCard>
  );
}
