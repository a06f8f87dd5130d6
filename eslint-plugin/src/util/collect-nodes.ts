// Gathers the nodes the lock model starts from — calls, tagged templates, member initialisers — once
// per file, shared by its Redis and SQL halves. The halves' token screens (redis-gate.ts,
// screen/sql-prefilter.ts) keep most files from being looked at all. While ESLint lints, the nodes are
// picked up from ESLint's own traversal (`collectingListeners`, added to one rule per file), which
// costs a listener call per such node instead of a second walk of the whole tree; anywhere else
// (a model built outside a lint, or asked for before the traversal ended) one walk collects them.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

export interface CollectedNodes {
  /** Calls, in source order (an outer chain link before the links inside it). */
  readonly calls: readonly TSESTree.CallExpression[];
  readonly taggedTemplates: readonly TSESTree.TaggedTemplateExpression[];
  /** `this.name = value` assignments and class fields with an initialiser. */
  readonly memberInitializers: readonly { readonly name: string; readonly value: TSESTree.Expression }[];
}

interface Collection extends CollectedNodes {
  readonly calls: TSESTree.CallExpression[];
  readonly taggedTemplates: TSESTree.TaggedTemplateExpression[];
  readonly memberInitializers: { name: string; value: TSESTree.Expression }[];
  /** False while ESLint's traversal is still filling it in. */
  complete: boolean;
}

const collections = new WeakMap<TSESTree.Program, Collection>();

function emptyCollection(): Collection {
  return { calls: [], taggedTemplates: [], memberInitializers: [], complete: false };
}

/** Records a node if it is one the model starts from. */
function record(collection: Collection, node: TSESTree.Node): void {
  switch (node.type) {
    case AST_NODE_TYPES.CallExpression:
      collection.calls.push(node);
      return;
    case AST_NODE_TYPES.TaggedTemplateExpression:
      collection.taggedTemplates.push(node);
      return;
    case AST_NODE_TYPES.AssignmentExpression:
      if (
        node.left.type === AST_NODE_TYPES.MemberExpression &&
        node.left.object.type === AST_NODE_TYPES.ThisExpression &&
        !node.left.computed &&
        node.left.property.type === AST_NODE_TYPES.Identifier
      ) {
        collection.memberInitializers.push({ name: node.left.property.name, value: node.right });
      }
      return;
    case AST_NODE_TYPES.PropertyDefinition:
      if (node.value && node.key.type === AST_NODE_TYPES.Identifier)
        collection.memberInitializers.push({ name: node.key.name, value: node.value });
      return;
    default:
      return;
  }
}

export function collectNodes(sourceCode: Readonly<TSESLint.SourceCode>): CollectedNodes {
  const program = sourceCode.ast;
  const existing = collections.get(program);
  if (existing?.complete) return existing;
  const collection = emptyCollection();
  walk(program, sourceCode.visitorKeys, collection);
  collection.complete = true;
  collections.set(program, collection);
  return collection;
}

/**
 * Listeners that record the model's nodes during ESLint's traversal, in the order a walk would
 * (ESLint enters nodes in the same order, by the same visitor keys), for the first rule of a file
 * to ask; `undefined` for the others. Its `Program:exit` runs before any rule asks for the model.
 */
export function collectingListeners(sourceCode: Readonly<TSESLint.SourceCode>): TSESLint.RuleListener | undefined {
  const program = sourceCode.ast;
  if (collections.has(program)) return undefined;
  const collection = emptyCollection();
  collections.set(program, collection);
  return {
    CallExpression: (node) => {
      collection.calls.push(node);
    },
    TaggedTemplateExpression: (node) => {
      collection.taggedTemplates.push(node);
    },
    AssignmentExpression: (node) => {
      record(collection, node);
    },
    PropertyDefinition: (node) => {
      record(collection, node);
    },
    'Program:exit': () => {
      collection.complete = true;
    },
  };
}

function walk(node: TSESTree.Node, visitorKeys: TSESLint.SourceCode.VisitorKeys, collection: Collection): void {
  record(collection, node);
  const keys = visitorKeys[node.type];
  if (!keys) return;
  for (const key of keys) {
    const child = (node as unknown as Record<string, unknown>)[key];
    if (Array.isArray(child)) {
      for (const item of child as (TSESTree.Node | null)[]) if (item) walk(item, visitorKeys, collection);
    } else if (child !== null && typeof child === 'object' && typeof (child as TSESTree.Node).type === 'string') {
      walk(child as TSESTree.Node, visitorKeys, collection);
    }
  }
}
