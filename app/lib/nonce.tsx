import { createContext, useContext } from "react";

/** The CSP nonce of this response; empty in the browser, where React leaves the attribute alone. */
const NonceContext = createContext("");

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}
