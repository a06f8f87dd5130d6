// Where a followed value was made when not where it is declared (project/factories.ts): what a factory
// function returns, what a variable declared empty is assigned later, what a class assigns to
// `this.name`, and which of the project's functions a call runs (this module's, a method of the same
// class, another module's export). Nullish values are the empty state, not a value; too many returns or
// assignments, compound updates and destructuring are values that change, not ones set up once.

import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { after, before, describe, it } from 'mocha';
import { collectImports } from '../../../../eslint-plugin/src/model/facts/imports.js';
import {
  assignedMembersOf,
  assignedValues,
  calledFunction,
  isNullish,
  memberAssignments,
  returnedValues,
} from '../../../../eslint-plugin/src/model/project/factories.js';
import { collectNodes } from '../../../../eslint-plugin/src/util/collect-nodes.js';
import { functionName, isFunctionLike, type FunctionLike } from '../../../../eslint-plugin/src/util/ast.js';
import { readAtEnd } from '../../../support/probe-rule.js';
import { TempProject } from './temp-project.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** The file's functions by name (declarations, and functions assigned to a const). */
function functionsOf(sourceCode: SourceCode): Map<string, FunctionLike> {
  const found = new Map<string, FunctionLike>();
  const visit = (node: TSESTree.Node): void => {
    if (isFunctionLike(node)) {
      const name = functionName(node);
      if (name !== undefined && !found.has(name)) found.set(name, node);
    }
    for (const key of sourceCode.visitorKeys[node.type] ?? []) {
      const child = (node as unknown as Record<string, unknown>)[key];
      for (const item of Array.isArray(child) ? (child as unknown[]) : [child])
        if (item && typeof (item as TSESTree.Node).type === 'string') visit(item as TSESTree.Node);
    }
  };
  visit(sourceCode.ast);
  return found;
}

const texts = (sourceCode: SourceCode, nodes: readonly TSESTree.Node[] | undefined): string[] | undefined =>
  nodes?.map((node) => sourceCode.getText(node));

describe('factories: isNullish and returnedValues', () => {
  it('isNullish: null, undefined and void are the empty state; a regular expression, 0 and "" are values', () => {
    const answers = readAtEnd('const values = [null, undefined, void 0, /x/u, 0, "", NaN];', (context) => {
      const declaration = context.sourceCode.ast.body[0] as TSESTree.VariableDeclaration;
      return (declaration.declarations[0].init as TSESTree.ArrayExpression).elements.map((element) => isNullish(element!));
    });
    assert.deepEqual(answers, [true, true, true, false, false, false, false]);
  });

  it('returnedValues: every non-nullish return outside nested functions, through branches, loops, try and switch', () => {
    const answers = readAtEnd(
      `const arrow = () => makeClient();
function lazy() {
  if (cached) return cached;
  try {
    for (const option of options) {
      if (option) return makeClient(option);
    }
  } catch {
    return null;
  } finally {
    cleanup();
  }
  switch (mode) {
    case 'cluster':
      return makeCluster();
    default:
      break;
  }
  const inner = () => {
    return other();
  };
  class Nested {
    get() {
      return other();
    }
  }
  return undefined;
}
function nothing() {
  doWork();
  return;
}
function many(n) {
  if (n === 1) return 1;
  if (n === 2) return 2;
  if (n === 3) return 3;
  if (n === 4) return 4;
  if (n === 5) return 5;
  if (n === 6) return 6;
  if (n === 7) return 7;
  if (n === 8) return 8;
  return 9;
}`,
      (context) => {
        const functions = functionsOf(context.sourceCode);
        return ['arrow', 'lazy', 'nothing', 'many'].map((name) => texts(context.sourceCode, returnedValues(functions.get(name)!))?.sort());
      },
    );
    // The nested arrow's and class's returns are theirs; more than eight returns is no factory.
    assert.deepEqual(answers, [['makeClient()'], ['cached', 'makeClient(option)', 'makeCluster()'], undefined, undefined]);
  });
});

describe('factories: assignedValues and member assignments', () => {
  it('assignedValues: later plain, ||= and ??= assignments; none, nullish only, compound or destructured are no answer', () => {
    const answers = readAtEnd(
      `let client;
export function init() { client = createClient(); }
export function close() { client = null; }
let lazy;
export function get() { return (lazy ??= createClient()); }
let counter = 0;
export function bump() { counter += 1; }
let pair;
export function both() { [pair] = makePair(); }
let never;
let reset;
export function clear() { reset = undefined; }`,
      (context) => {
        const scope = context.sourceCode.scopeManager!.scopes.find((candidate) => candidate.set.has('client'))!;
        const variable = (name: string) => scope.set.get(name)!;
        return ['client', 'lazy', 'counter', 'pair', 'never', 'reset'].map((name) =>
          texts(context.sourceCode, assignedValues(variable(name))),
        );
      },
      { sourceType: 'module' },
    );
    assert.deepEqual(answers, [['createClient()'], ['createClient()'], undefined, undefined, undefined, undefined]);
  });

  it('memberAssignments: what each class assigns to this.name, fields included, nulls left out', () => {
    const answers = readAtEnd(
      `class Store {
  pool = new Pool();
  constructor() {
    this.redis = createClient();
  }
  close() {
    this.redis = null;
  }
}
class Other {
  connect() {
    this.redis = createCluster();
  }
}`,
      (context) => {
        const initializers = collectNodes(context.sourceCode).memberInitializers;
        const classes = context.sourceCode.ast.body as TSESTree.ClassDeclaration[];
        return classes.map((declaration) => ({
          members: [...assignedMembersOf(declaration.body, initializers)].sort(),
          redis: texts(context.sourceCode, memberAssignments(declaration.body, 'redis', initializers)),
          pool: texts(context.sourceCode, memberAssignments(declaration.body, 'pool', initializers)),
        }));
      },
    );
    assert.deepEqual(answers, [
      { members: ['pool', 'redis'], redis: ['createClient()'], pool: ['new Pool()'] },
      { members: ['redis'], redis: ['createCluster()'], pool: [] },
    ]);
  });
});

describe('factories: calledFunction', () => {
  let project: TempProject;

  before(() => {
    project = new TempProject('locksmith-factories-');
    project.write('src/db.ts', [
      "import { Pool } from 'pg';",
      'const pool = new Pool();',
      'export function getPool() {',
      '  return pool;',
      '}',
    ]);
  });

  after(() => {
    project.remove();
  });

  it('a function of this module, a method of the same class, or another module’s export; not a package’s', () => {
    const lines = [
      "import { getPool } from './db.js';",
      "import * as db from './db.js';",
      "import { createClient } from 'redis';",
      'function getRedis() {',
      '  return createClient();',
      '}',
      'const getCache = () => createClient();',
      'class Repo {',
      '  getClient() {',
      '    return getRedis();',
      '  }',
      '  static make() {',
      '    return new Repo();',
      '  }',
      '  run() {',
      '    this.getClient();',
      '    this.make();',
      '    getRedis();',
      '    getCache();',
      '    getPool();',
      '    db.getPool();',
      '    createClient();',
      '    compute();',
      '  }',
      '}',
      'declare function compute(): void;',
    ];
    const file = project.write('src/app.ts', lines);
    const answers = readAtEnd(
      lines.join('\n'),
      (context) => {
        const imports = collectImports(context.sourceCode.ast);
        return collectNodes(context.sourceCode)
          .calls.filter((call) => call.loc.start.line >= 16 && call.loc.start.line <= 23)
          .map((call) => {
            const called = calledFunction(context.sourceCode, imports, file, call);
            return [
              context.sourceCode.getText(call.callee),
              called &&
                `${called.fn.type === AST_NODE_TYPES.FunctionDeclaration ? 'declaration' : called.fn.type} ${called.module ? path.relative(project.root, called.module.filePath) : 'here'}`,
            ];
          });
      },
      { typescript: true },
    );
    assert.deepEqual(answers, [
      ['this.getClient', 'FunctionExpression here'],
      // A static method is not the instance's.
      ['this.make', undefined],
      ['getRedis', 'declaration here'],
      ['getCache', 'ArrowFunctionExpression here'],
      ['getPool', 'declaration src/db.ts'],
      ['db.getPool', 'declaration src/db.ts'],
      ['createClient', undefined],
      ['compute', undefined],
    ]);
  });
});
