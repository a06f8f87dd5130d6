// The options the CLI gives ESLint, built from plain JSON so that ESLint's worker threads can
// rebuild them: `ESLint.fromOptionsModule()` hands the workers a module URL, never the options.

import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ESLint, Linter } from 'eslint';
import type { CacheStrategy, Concurrency } from './args.js';
import { buildCliConfig, PLUGIN_PREFIX, type CliConfigInput } from './config.js';

export interface EslintOptionsInput {
  /** ESLint's base directory: it lints nothing outside it. */
  cwd: string;
  config: CliConfigInput;
  /** ESLint's own result cache, or `undefined` for none. */
  cache: { location: string; strategy: CacheStrategy } | undefined;
  concurrency: Concurrency;
  /** Whether to pass ESLint's `ruleFilter` (ESLint 9 and later) so only Locksmith's rules run. */
  ruleFilter: boolean;
}

// ESLint ignores these by default even with no other ignores; un-ignoring them is the only way
// to lint a file the user named there (`locksmith node_modules/pkg/index.js`). Every other
// ignore was applied when the file list was built.
const UNIGNORE_DEFAULTS: Linter.Config = { name: 'locksmith/cli/lint-what-was-named', ignores: ['!**/node_modules/', '!.git/'] };

export function buildEslintOptions(input: EslintOptionsInput): ESLint.Options {
  const options: ESLint.Options = {
    cwd: input.cwd,
    overrideConfigFile: true,
    overrideConfig: [UNIGNORE_DEFAULTS, ...buildCliConfig(input.config)],
    errorOnUnmatchedPattern: false,
  };
  if (input.ruleFilter) {
    Object.assign(options, { ruleFilter: ({ ruleId }: { ruleId: string }) => ruleId.startsWith(PLUGIN_PREFIX) });
  }
  if (input.cache !== undefined) {
    Object.assign(options, { cache: true, cacheLocation: input.cache.location, cacheStrategy: input.cache.strategy });
  }
  // ESLint before 9.34 rejects an unknown `concurrency` option, so it is only passed when used.
  if (input.concurrency !== 'off') {
    (options as Record<string, unknown>).concurrency = input.concurrency;
  }
  return options;
}

const OPTIONS_MODULE = path.join(__dirname, 'options-module.mjs');
const INPUT_PARAMETER = 'input';

/** The options module's URL, carrying `input` in its query: each worker imports it and gets the same options. */
export function optionsModuleUrl(input: EslintOptionsInput): URL {
  const url = pathToFileURL(OPTIONS_MODULE);
  url.searchParams.set(INPUT_PARAMETER, JSON.stringify(input));
  return url;
}

export function inputFromOptionsModuleUrl(moduleUrl: string): EslintOptionsInput {
  const encoded = new URL(moduleUrl).searchParams.get(INPUT_PARAMETER);
  if (encoded === null) throw new Error(`options module imported without its '${INPUT_PARAMETER}' parameter: ${moduleUrl}`);
  return JSON.parse(encoded) as EslintOptionsInput;
}
