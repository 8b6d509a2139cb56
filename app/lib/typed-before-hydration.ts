import { type RefObject, useLayoutEffect } from "react";

/**
 * Keeps what a person typed into a server-rendered text field before its script hydrated it. React
 * hydrates a controlled field without touching its DOM value, but the field's next render puts
 * React's state back (the server's value), so the text would be lost, or a search sent with the
 * old words. Runs once, after hydration and before the browser paints: the state takes the typed
 * text. `onTyped` also learns whether the field has the focus (a combobox opens its list).
 */
export function useTextTypedBeforeHydration(
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
