// `tsx test/support/write-schemas.ts` writes the shipped JSON schemas of locksmith.json from
// the rule list and the settings; `--check` fails when a shipped file is out of date.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { packageJsonSchema, projectConfigSchema } from '../../eslint-plugin/src/project-config/index.js';

export const SCHEMA_DIRECTORY = path.resolve(__dirname, '../../eslint-plugin/schemas');

/** File name → the text it must hold. */
export function schemaFiles(): Map<string, string> {
  return new Map([
    ['locksmith.schema.json', `${JSON.stringify(projectConfigSchema(), null, 2)}\n`],
    ['package.schema.json', `${JSON.stringify(packageJsonSchema(), null, 2)}\n`],
  ]);
}

if (require.main === module) {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const [name, text] of schemaFiles()) {
    const file = path.join(SCHEMA_DIRECTORY, name);
    const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    if (current === text) continue;
    if (check) {
      console.error(`${path.relative(process.cwd(), file)} is out of date: run npm run docs`);
      stale += 1;
    } else {
      fs.mkdirSync(SCHEMA_DIRECTORY, { recursive: true });
      fs.writeFileSync(file, text);
      console.log(`wrote ${path.relative(process.cwd(), file)}`);
    }
  }
  process.exitCode = stale === 0 ? 0 : 1;
}
