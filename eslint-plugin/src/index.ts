// eslint-plugin-locksmith: rules, configs and metadata, in the shape ESLint 8.57, 9 and 10 all load.

import type { TSESLint } from '@typescript-eslint/utils';
import { createConfigs } from './configs.js';
import { luaLanguage } from './lua/language.js';
import { rules } from './rules/index.js';

// Read at run time so the published version is never out of step with package.json.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { name, version } = require('../package.json') as { name: string; version: string };

const plugin = {
  // The namespace lets ESLint 10 match `meta.languages: ['locksmith/lua']` under any plugin alias.
  meta: { name, version, namespace: 'locksmith' },
  languages: { lua: luaLanguage },
  rules,
} satisfies TSESLint.FlatConfig.Plugin & { languages: Record<string, object> };

const configs = createConfigs(plugin);

const locksmith = Object.assign(plugin, { configs });

export = locksmith;
