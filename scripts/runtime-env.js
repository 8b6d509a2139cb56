// Decision 0107: `npm start` always serves React's production build, whatever NODE_ENV the
// operator set. React picks its development or production build from NODE_ENV when it is
// first imported, so NODE_ENV must say "production" before the server build is loaded.
// The app's own production mode (Secure cookies, no /dev/mail, APP_SECRET required;
// decision 0003) stays under the operator's NODE_ENV, so it is read first and handed to
// the app as its environment.

/**
 * Sets `env.NODE_ENV` to "production" for React and returns a copy of the
 * environment as the operator gave it, for the app's configuration.
 * @param {Record<string, string | undefined>} env
 * @returns {Record<string, string | undefined>}
 */
export function selectReactProductionBuild(env) {
  const operatorEnv = { ...env };
  env.NODE_ENV = "production";
  return operatorEnv;
}
