import { Outlet } from "react-router";
import { requireUser } from "~/app/lib/viewer.server";
import type { Route } from "./+types/protected";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

/** Protected routes of spec 1 §2: signed-out visitors are redirected to /. */
export async function loader(args: Route.LoaderArgs) {
  await requireUser(args);
  return null;
}

export default function Protected() {
  return <Outlet />;
}
