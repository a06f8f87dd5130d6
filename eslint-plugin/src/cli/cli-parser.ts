// The CLI's JavaScript parser: the shared Node-like module system decision (parsing/), with the
// espree, eslint-scope and visitor keys of the ESLint that runs us, whichever major it is, so the
// tree and scopes are exactly what its default parser would produce.
//
// A module of its own, holding no state a fresh import cannot rebuild (the package.json cache
// refills itself), so ESLint worker threads can load it by name.

import { createRequire } from 'node:module';
import { asLinterParser, createJavascriptParser, type EslintScope, type Espree, type VisitorKeys } from '../parsing/javascript-parser.js';

const fromEslint = createRequire(require.resolve('eslint'));

const parser = createJavascriptParser({
  espree: fromEslint('espree') as Espree,
  eslintScope: fromEslint('eslint-scope') as EslintScope,
  visitorKeys: fromEslint('eslint-visitor-keys') as Required<VisitorKeys>,
});

export const { meta, parseForESLint } = parser;

/** The parser object for flat config's `languageOptions.parser` (its tree is espree's ESTree). */
export const javascriptParser = asLinterParser(parser);
