import type { Auth } from "../accounts/auth";
import type { Campus } from "../campuses/campuses";
import type { CampusDirectory } from "../campuses/directory";
import type { AppContext } from "../context";

/** What every loader and action receives as `context` (docs/architecture.md rule 3). */
export interface RequestContext {
  app: AppContext;
  auth: Auth;
  campuses: CampusDirectory;
  /** The community this request's host serves. */
  campus: Campus;
  /** CSP nonce of this response, for the document's scripts. */
  nonce: string;
  /** Client address (X-Forwarded-For only with TRUST_PROXY=1). */
  clientIp: string | null;
  /**
   * Set by app/entry.server.tsx handleError when a loader or action of this request found the
   * database unreachable: the answer is then a 503 with Retry-After (decision 0470).
   */
  databaseUnavailable?: boolean;
}

declare module "react-router" {
  interface AppLoadContext extends RequestContext {}
}
