import { redirect } from "react-router";

// spec 1 §2: / redirects to /home.
export function loader() {
  return redirect("/home");
}
