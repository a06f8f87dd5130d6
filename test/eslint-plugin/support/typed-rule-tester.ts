// The RuleTester for type-aware tests: the bounded tester of rule-tester.ts, with type information from
// typescript-eslint's project service, as the shipped `recommended-type-checked` config gets it.

import * as path from 'node:path';
import { RuleTester } from './rule-tester.js';

/**
 * The fixture project: its tsconfig.json includes only the modules test code imports (`./store`,
 * `./local-locks`). A case's own file (`file.ts`, the tester's default name) exists only in memory,
 * so it is served by the default project, built from that same tsconfig.json. Were the case's file
 * in the tsconfig as well, the project service would refuse it.
 */
export const TYPED_FIXTURES = path.join(__dirname, '..', 'fixtures', 'typed');

/** A RuleTester whose cases are parsed with type information; file names resolve against `TYPED_FIXTURES`. */
export function createTypedRuleTester(): RuleTester {
  return new RuleTester({
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.ts*'], defaultProject: 'tsconfig.json' },
        tsconfigRootDir: TYPED_FIXTURES,
      },
    },
  });
}
