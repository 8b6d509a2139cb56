import type { RequestHandler } from "express";

/**
 * Hands better-auth the client address Express worked out (`req.ip`, behind TRUST_PROXY's one
 * hop) in the header it reads the address from (server/accounts/auth.ts `ipAddressHeaders`):
 * whatever a client wrote there is overwritten, so only we set it.
 */
export function passClientIp(): RequestHandler {
  return (req, _res, next) => {
    req.headers["x-cbs-client-ip"] = req.ip ?? "";
    next();
  };
}
