// The related locations a rule attaches to a report: read by the plugin's own module, which the CLI's
// SARIF output reads too, so the editor and code scanning show the same places.

export * from 'eslint-plugin-locksmith/related';
