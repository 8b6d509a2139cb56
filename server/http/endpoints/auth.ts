import { toNodeHandler } from "better-auth/node";
import type { Express } from "express";
import { type Auth, isPublicAuthPath } from "../../accounts/auth";

/**
 * better-auth's endpoints under `/api/auth`: only the ones we list are public; sign-up, sign-in
 * and resets go through our rules (server/accounts/auth.ts PUBLIC_AUTH_PATHS), any other is 404.
 */
export function mountAuthEndpoints(app: Express, auth: Auth): void {
  app.all("/api/auth/{*path}", (req, res, next) => {
    if (isPublicAuthPath(req.path.slice("/api/auth".length))) next();
    else res.status(404).json({ message: "Not Found" });
  });
  app.all("/api/auth/{*path}", toNodeHandler(auth));
}
