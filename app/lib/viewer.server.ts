import { type AppLoadContext, redirect } from "react-router";
import { getViewerFromHeaders, type Viewer } from "~/server/accounts/viewer";

interface Args {
  request: Request;
  context: AppLoadContext;
}

const viewers = new WeakMap<object, Promise<Viewer | null>>();

/**
 * The signed-in user of this request, or null; looked up once per request. React Router hands
 * each loader a Request of its own but one load context per HTTP request, so a page's loaders
 * share the context's lookup (the root's and the page's: one query, not two; decision 0354). A
 * form post keeps to its Request: its action may change who is signed in before the loaders run.
 */
export function getViewer({ request, context }: Args): Promise<Viewer | null> {
  const key = request.method === "GET" || request.method === "HEAD" ? context : request;
  let viewer = viewers.get(key);
  if (!viewer) {
    viewer = getViewerFromHeaders(context.app, context.auth, request.headers);
    viewers.set(key, viewer);
  }
  return viewer;
}

/** Protected routes (spec 1 §2): signed-out visitors go to /. */
export async function requireUser(args: Args): Promise<Viewer> {
  const viewer = await getViewer(args);
  if (!viewer) throw redirect("/");
  return viewer;
}

/** The sign-in and sign-up pages (spec 1 §2 /login, /register, /user_registration, /login/sent): signed-in users go to /home. */
export async function requireSignedOut(args: Args): Promise<void> {
  if (await getViewer(args)) throw redirect("/home");
}

/** Like requireUser, and an unverified e-mail goes to /verify first (spec 1 §4). */
export async function requireVerifiedUser(args: Args): Promise<Viewer> {
  const viewer = await requireUser(args);
  if (!viewer.verified) throw redirect("/verify");
  return viewer;
}
