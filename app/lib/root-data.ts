import { useRouteLoaderData } from "react-router";
import type { loader } from "~/app/root";

export type RootData = Awaited<ReturnType<typeof loader>>["data"];

/** The root loader's data (campus, viewer, member and unread counts) from any component. */
export function useRootData(): RootData {
  const rootData = useRouteLoaderData<typeof loader>("root");
  if (!rootData) throw new Error("useRootData used outside the root route");
  return rootData;
}
