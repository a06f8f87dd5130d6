// The text of `locksmith --help`.

import { CACHE_STRATEGIES, DEFAULT_CACHE_LOCATION, OUTPUT_FORMATS, PRESETS } from './args.js';
import { LINTED_EXTENSIONS } from './files.js';

export function helpText(version: string): string {
  return `locksmith ${version} — find misused Redis and PostgreSQL distributed locks

Usage: locksmith [options] [paths...]
       locksmith [options] --stdin [--stdin-filename <path>]

Lints ${LINTED_EXTENSIONS.join(' ')} files under the given paths (default: .) with the
locksmith rules. No ESLint configuration is needed or read; each file's nearest locksmith.json
(or package.json "locksmith" key) applies. node_modules, build output (dist, build, out,
coverage, .next, ...) and .gitignored paths are skipped.

Rules and configuration:
      --preset <name>      Rules to start from: ${PRESETS.join(', ')} (default: recommended)
      --rule <id=severity> Set a rule to off, warn or error (repeatable), over the preset
                           and locksmith.json, e.g. --rule no-unsafe-release=warn
  -c, --config <file>      Use this locksmith.json for every file instead of looking one up
      --no-config-lookup   Use no locksmith.json
      --type-aware         Lint TypeScript with the project's tsconfig (type information);
                           files no tsconfig includes are linted without it

Output:
  -f, --format <name>      Output format: ${OUTPUT_FORMATS.join(', ')} (default: stylish)
  -o, --output-file <file> Write the report to a file instead of standard output
      --quiet              Report errors only (warnings are neither shown nor counted)
      --max-warnings <n>   Exit 1 when there are more than n warnings
      --no-warn-ignored    No notice for a file named on the command line that is ignored

Input:
      --stdin              Lint the text on standard input
      --stdin-filename <path>  The file name to lint standard input as (default: JavaScript)

Speed (ESLint's own cache and threads):
      --cache              Only re-lint files that changed since the last run
      --cache-location <path>  Cache file or directory (default: ${DEFAULT_CACHE_LOCATION})
      --cache-strategy <s> How a change is seen: ${CACHE_STRATEGIES.join(', ')} (default: metadata)
      --concurrency <n>    Worker threads: auto, off or a number (default: off; ESLint >= 9.34)
      --shard <i/n>        Lint only shard i of n (a CI matrix): a file's shard is a hash of its
                           path from the repository root, so adding files moves no other file

  -h, --help               Show this help
  -v, --version            Show the version

Exit status: 0 no errors, 1 errors found (files that fail to parse count as errors) or
too many warnings, 2 usage error, bad locksmith.json or unreadable path.
`;
}
