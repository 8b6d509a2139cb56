import { generateKeyPairSync } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Provider, { type Configuration, type KoaContextWithOIDC } from "oidc-provider";

// A real OpenID Connect provider standing in for Google in the end-to-end tests
// (docs/architecture.md pitfall 8; decision 0061). The app discovers it through
// GOOGLE_ISSUER, so the global setup starts it before the app.

/** Any free port unless E2E_OIDC_PORT says otherwise: only the app (through GOOGLE_ISSUER) needs to know it. */
export const OIDC_PORT = Number(process.env.E2E_OIDC_PORT ?? 0);
export const OIDC_CLIENT_ID = "campus-buy-sell-e2e";
export const OIDC_CLIENT_SECRET = "campus-buy-sell-e2e-client-secret";
/** Every test account's display name: spec 1 §5 makes it 'Taylor' 'S.' (middle name 'Q Brooks'). */
export const OIDC_DISPLAY_NAME = "Taylor Q. Brooks-Smith";

/** The e-mail of the test account a login name signs in as (the dev login form accepts any name). */
export function oidcEmail(login: string): string {
  return `${login}@example.com`.toLowerCase();
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** The app's Google callback on every campus host it may be reached on (docs/contract.md 'Campuses and hosts'). */
function redirectUris(appPort: number): string[] {
  const campuses = JSON.parse(readFileSync(path.join(root, "server/campuses/campuses.json"), "utf8")) as {
    slug: string;
  }[];
  const hosts = ["localhost", "127.0.0.1", ...campuses.map((campus) => `${campus.slug}.localhost`)];
  return hosts.map((host) => `http://${host}:${appPort}/api/auth/callback/google`);
}

export interface OidcServer {
  readonly issuer: string;
  close(): Promise<void>;
}

/**
 * Starts the provider: one confidential client for the app, its development login form
 * (any login name; Cancel answers access_denied), consent granted without asking (as
 * Google does for a client the user already allowed), and the account's claims: e-mail
 * `<login>@example.com` (verified) and the display name above.
 */
export async function startOidcServer(options: { port?: number; appPort: number }): Promise<OidcServer> {
  const port = options.port ?? OIDC_PORT;
  const listener = await listenOn(port);
  const issuer = `http://localhost:${(listener.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const signingKey = { ...privateKey.export({ format: "jwk" }), kid: "e2e", alg: "RS256", use: "sig" };

  const configuration: Configuration = {
    clients: [
      {
        client_id: OIDC_CLIENT_ID,
        client_secret: OIDC_CLIENT_SECRET,
        redirect_uris: redirectUris(options.appPort),
        response_types: ["code"],
        grant_types: ["authorization_code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: ["campus-buy-sell-e2e-oidc-cookies"] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({ sub, email: oidcEmail(sub), email_verified: true, name: OIDC_DISPLAY_NAME }),
    }),
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const client = ctx.oidc.client;
      const session = ctx.oidc.session;
      if (!client || !session?.accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
  };

  const provider = new Provider(issuer, configuration);
  listener.on("request", provider.callback());
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        listener.closeAllConnections();
        listener.close(() => resolve());
      }),
  };
}

/** The issuer URL carries the port, so the server listens before the provider is made. */
function listenOn(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, () => {
      server.off("error", reject);
      resolve(server);
    });
  });
}
