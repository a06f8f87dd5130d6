// The text of `locksmith --help`.

import { OUTPUT_FORMATS } from './args.js';
import { LINTED_EXTENSIONS } from './files.js';

export function helpText(version: string): string {
  return `locksmith ${version} — find misused Redis and PostgreSQL distributed locks

Usage: locksmith [options] [paths...]

Lints ${LINTED_EXTENSIONS.join(' ')} files under the given paths (default: .) with the
locksmith "recommended" rules. No ESLint configuration is needed or read. node_modules,
build output (dist, build, out, coverage, .next, ...) and .gitignored paths are skipped.

Options:
  -f, --format <name>      Output format: ${OUTPUT_FORMATS.join(', ')} (default: stylish)
  -o, --output-file <file> Write the report to a file instead of standard output
      --max-warnings <n>   Exit 1 when there are more than n warnings
      --rule <id=severity> Set a rule to off, warn or error (repeatable),
                           e.g. --rule no-unsafe-release=warn
  -h, --help               Show this help
  -v, --version            Show the version

Exit status: 0 no errors, 1 errors found (files that fail to parse count as errors) or
too many warnings, 2 usage error or unreadable path.
`;
}
