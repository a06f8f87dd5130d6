// The environment for an npm run started from inside an npm script, without what the outer npm set.
//
// npm exports its whole configuration to the scripts it runs (npm_config_user_agent, npm_config_prefix,
// npm_config_global, …) plus npm_package_*, npm_lifecycle_* and npm_execpath. A nested `npm ci` reads them
// back as its own configuration: it would install into the outer prefix, with the outer flags, and report
// the outer Node version to install scripts. npm reads these names case-insensitively, so both spellings go.

/** A copy of `environment` with every variable the outer npm set for its scripts removed. */
export function cleanNpmEnvironment(environment = process.env) {
  const cleaned = {};
  for (const [name, value] of Object.entries(environment)) {
    if (!/^npm_/i.test(name) && name !== 'INIT_CWD') cleaned[name] = value;
  }
  return cleaned;
}
