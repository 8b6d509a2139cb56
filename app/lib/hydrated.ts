import { useEffect, useState } from "react";

/** True once React runs in the browser: until then a form is plain HTML and must work as such. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
