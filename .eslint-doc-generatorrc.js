// eslint-doc-generator settings: rule doc headers in rules-docs/ and the rules table in README.md.
// Paths are relative to the plugin package (./eslint-plugin), which `npm run docs` builds first.

/** @type {import('eslint-doc-generator').GenerateOptions} */
module.exports = {
  pathRuleDoc: '../rules-docs/{name}.md',
  pathRuleList: '../README.md',
  ruleDocTitleFormat: 'desc-parens-prefix-name',
  configEmoji: [
    ['recommended', '✅'],
    ['strict', '🔒'],
    ['recommended-type-checked', '☑️'],
    ['lua', '🌙'],
  ],
  // The eslintrc twins of the flat configs enable the same rules; listing them again adds nothing.
  ignoreConfig: ['legacy-recommended', 'legacy-strict', 'legacy-recommended-type-checked'],
  ruleDocNotices: ['configs', 'fixableAndHasSuggestions', 'requiresTypeChecking'],
  ruleListColumns: [
    'name',
    'description',
    'configsError',
    'configsWarn',
    'configsOff',
    'fixable',
    'hasSuggestions',
    'requiresTypeChecking',
  ],
  // Every page has an "Options" section for the shared `settings.locksmith`, rules with no options of
  // their own included; test/eslint-plugin/meta.test.ts checks that each rule option is documented.
  ruleDocSectionOptions: false,
  urlConfigs: 'https://github.com/locksmith-lint/locksmith#readme',
};
