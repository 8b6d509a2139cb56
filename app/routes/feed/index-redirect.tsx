import { redirect } from "react-router";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

// spec 1 §2: / redirects to /home.
export function loader() {
  return redirect("/home");
}
