// The layers of eslint-plugin/src and extension/src, checked by `npm run lint` (dependency-cruiser).
// Read bottom-up: each layer may import the layers listed before it, never one listed after it.
//
//   util, lua, sql-syntax, parsing        parsers and AST helpers, no lock knowledge
//   model/nouns                           the model's types; imports no model code
//   model/tables                          library semantics as data (clients, words, servers)
//   model/facts                           facts read off one file's AST (imports, keys, result flow, settings)
//   model/screen (gates)                  text screens that rule a file out without parsing
//   model/project                         the project's other modules (resolution, exports, factories)
//   model/helpers                         summaries of the project's own lock helpers
//   model/redis, model/sql                the two builders (they share only what is below them)
//   model/pairing                         the one place that pairs a lock with its releases
//   model/questions                       what rules ask of the model
//   model/editor, model/lua-scripts       the lock map and Lua-file support
//   model/lock-model.ts, model/index.ts   the assembly of one file's model, and the face rules import
//   fixes, rule-support, rules            edits, rule plumbing, one thin rule per file
//   configs, cli, project-config, ...     what runs the rules
//
// Type-only imports count: a cycle through types is still a noun living in the wrong file.

const MODEL = '^eslint-plugin/src/model/';
const below = (...layers) => `${MODEL}(?!(?:${layers.join('|')})(?:/|\\.ts$))`;

/** A rule that keeps `from` off every model folder but `allowed`. */
function layer(name, from, allowed) {
  return {
    name: `layer-${name}`,
    comment: `${from} may import only ${allowed.join(', ')} inside the model (.dependency-cruiser.cjs says why)`,
    severity: 'error',
    from: { path: `${MODEL}${from}` },
    to: { path: below(...allowed) },
  };
}

const GATES = 'screen/(?:redis-gate|sql-prefilter|acquisition-gate)';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle: almost always a noun living in the wrong file, or a builder asking a question.',
      severity: 'error',
      from: { path: '^(eslint-plugin|extension)/src/' },
      to: { circular: true },
    },
    layer('nouns', 'nouns/', ['nouns']),
    layer('tables', 'tables/', ['nouns', 'tables']),
    layer('facts', 'facts/', ['nouns', 'tables', 'facts']),
    layer('gates', `${GATES}\\.ts$`, ['nouns', 'tables', 'facts', GATES]),
    layer('project', 'project/', ['nouns', 'tables', 'facts', GATES, 'project']),
    layer('helpers', 'helpers/', ['nouns', 'tables', 'facts', GATES, 'project', 'helpers']),
    layer('redis-builder', 'redis/', ['nouns', 'tables', 'facts', GATES, 'project', 'helpers', 'redis']),
    layer('sql-builder', 'sql/', ['nouns', 'tables', 'facts', GATES, 'project', 'helpers', 'sql']),
    layer('pairing', 'pairing/', ['nouns', 'tables', 'facts', GATES, 'project', 'helpers', 'redis', 'sql', 'pairing']),
    layer('questions', 'questions/', ['nouns', 'tables', 'facts', GATES, 'project', 'helpers', 'redis', 'sql', 'pairing', 'questions']),
    {
      name: 'model-never-imports-its-face',
      comment: 'model/index.ts is what rules import; the model imports its own modules directly.',
      severity: 'error',
      from: { path: MODEL },
      to: { path: `${MODEL}index\\.ts$` },
    },
    {
      name: 'no-upward-edge-into-the-model',
      comment: 'util, lua, sql-syntax and parsing sit below the model and know nothing of locks.',
      severity: 'error',
      from: { path: '^eslint-plugin/src/(util|lua|sql-syntax|parsing)/' },
      to: { path: '^eslint-plugin/src/(model|rules|rule-support|fixes|cli|project-config|configs|index)' },
    },
    {
      name: 'model-below-rules',
      comment: 'The model answers questions; it never imports a rule, a fix or what runs the rules.',
      severity: 'error',
      from: { path: MODEL },
      to: { path: '^eslint-plugin/src/(rules|rule-support|fixes|cli|project-config|configs\\.ts|index\\.ts)' },
    },
    {
      name: 'rules-ask-the-face',
      comment: 'Rules import the model through its face, model/index.ts (test/eslint-plugin/model-face.test.ts holds the list).',
      severity: 'error',
      from: { path: '^eslint-plugin/src/rules/' },
      to: { path: `${MODEL}(?!index\\.ts$)` },
    },
    {
      name: 'project-config-below-cli',
      comment: 'The CLI reads project configuration; project configuration never reaches into the CLI.',
      severity: 'error',
      from: { path: '^eslint-plugin/src/project-config/' },
      to: { path: '^eslint-plugin/src/cli/' },
    },
    {
      name: 'client-and-server-apart',
      comment: 'The VS Code client starts the server; they share only extension/src/shared.',
      severity: 'error',
      from: { path: '^extension/src/client/' },
      to: { path: '^extension/src/server/' },
    },
    {
      name: 'server-without-vscode-client',
      severity: 'error',
      from: { path: '^extension/src/server/' },
      to: { path: '^extension/src/client/' },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.base.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|out)/' },
    enhancedResolveOptions: { extensions: ['.ts', '.mts', '.js', '.mjs', '.json'] },
  },
};
