// The directories no project walk enters: dependencies, build output, version control. Shared by
// the CLI's file walk and the lookup of a project's ESLint configuration.

/** Directories never descended into: dependencies, VCS data, and the usual build and cache output. */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set([
  'node_modules',
  'bower_components',
  'jspm_packages',
  '.git',
  '.hg',
  '.svn',
  'dist',
  'build',
  'out',
  'coverage',
  '.nyc_output',
  '.next',
  '.nuxt',
  '.svelte-kit',
  '.output',
  '.turbo',
  '.vercel',
  '.netlify',
  '.cache',
  '.parcel-cache',
  '.yarn',
  '.pnpm-store',
  '.vscode-test',
]);
