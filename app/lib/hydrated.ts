import { type RefObject, useEffect, useLayoutEffect, useState } from "react";

/** True once React runs in the browser: until then a form is plain HTML and must work as such. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/**
 * What the server-rendered <textarea> `id` holds when React first renders it in the browser: a
 * student may have typed in it before the page's script ran. Hydrating a textarea whose default
 * is not empty puts the default back over the typed text (react-dom's initTextarea sets
 * `value = textContent`; inputs are spared), so a controlled textarea starts from this value and
 * an uncontrolled one is given it back (useKeepTypedText). Undefined on the server and where no
 * such element was on the page (a client-side navigation).
 */
export function useTextTypedBeforeHydration(id: string): string | undefined {
  const [typed] = useState(() => {
    if (typeof document === "undefined") return undefined;
    const element = document.getElementById(id);
    return element instanceof HTMLTextAreaElement ? element.value : undefined;
  });
  return typed;
}

/** An uncontrolled textarea keeps what was typed in it before hydration (see useTextTypedBeforeHydration). */
export function useKeepTypedText(id: string, textarea: RefObject<HTMLTextAreaElement | null>): void {
  const typed = useTextTypedBeforeHydration(id);
  useLayoutEffect(() => {
    if (typed !== undefined && textarea.current && textarea.current.value !== typed)
      textarea.current.value = typed;
  }, [typed, textarea]);
}

/**
 * Keeps what a person typed into a server-rendered text field before its script hydrated it. React
 * hydrates a controlled field without touching its DOM value, but the field's next render puts
 * React's state back (the server's value), so the text would be lost, or a search sent with the
 * old words. Runs once, after hydration and before the browser paints: the state takes the typed
 * text. `onTyped` also learns whether the field has the focus (a combobox opens its list). For a
 * textarea whose server value is not empty, hydration itself overwrites the typed text: see
 * useTextTypedBeforeHydration above.
 */
export function useAdoptTypedValue(
  field: RefObject<HTMLInputElement | HTMLTextAreaElement | null>,
  state: string,
  onTyped: (text: string, focused: boolean) => void,
): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on the render that hydrated the field.
  useLayoutEffect(() => {
    const element = field.current;
    if (element && element.value !== state) onTyped(element.value, document.activeElement === element);
  }, []);
}
