import type { AppContext } from "../context";
import type { SignInMethods } from "./auth";
import { GOOGLE_ERROR_PATH, googleProviderConfig, isGoogleSignUp } from "./google";
import { MAGIC_LINK_TTL_MS, queueMagicLinkMail } from "./magic-link";

/**
 * The magic-link and Google callbacks the composition roots (server/http/app.ts startApp,
 * tests/support/test-context.ts) hand to createAuth (decision 0150): this module
 * imports both methods so that auth.ts imports neither.
 */
export function signInMethods(ctx: AppContext): SignInMethods {
  return {
    magicLink: {
      expiresInMs: MAGIC_LINK_TTL_MS,
      send: (data) => queueMagicLinkMail(ctx, data),
    },
    google: {
      provider: googleProviderConfig(ctx),
      isSignUp: isGoogleSignUp,
      errorPath: GOOGLE_ERROR_PATH,
    },
  };
}
