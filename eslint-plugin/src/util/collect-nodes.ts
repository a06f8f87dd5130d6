// Gathers the nodes the lock model starts from — calls, tagged templates, member initialisers — once
// per file, shared by its Redis and SQL halves. During a lint the nodes arrive through ESLint's own
// traversal (createRule adds the listeners to the first Locksmith rule of each file), so the file is
// not walked a second time; outside a lint, a walk of our own collects the same nodes.

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
      if (node.left.type === AST_NODE_TYPES.MemberExpression && node.left.object.type === AST_NODE_TYPES.ThisExpression
        && !node.left.computed && node.left.property.type === AST_NODE_TYPES.Identifier) {
        collection.memberInitializers.push({ name: node.left.property.name, value: node.right });
      }
      return;
    case AST_NODE_TYPES.PropertyDefinition:
      if (node.value && node.key.type === AST_NODE_TYPES.Identifier) collection.memberInitializers.push({ name: node.key.name, value: node.value });
      return;
    default:
      return;
  }
}

/**
 * Listeners that collect this file's nodes during ESLint's traversal, for the first rule that asks;
 * an empty object for the others, so each node is recorded once.
 */
export function collectingListeners(sourceCode: Readonly<TSESLint.SourceCode>): TSESLint.RuleListener {
  const program = sourceCode.ast;
  if (collections.has(program)) return {};
  const collection = emptyCollection();
  collections.set(program, collection);
  const onNode = (node: TSESTree.Node): void => { record(collection, node); };
  return {
    CallExpression: onNode,
    TaggedTemplateExpression: onNode,
    AssignmentExpression: onNode,
    PropertyDefinition: onNode,
    // Runs before any rule's Program:exit handler that reads the model (all node events come first).
    'Program:exit'() { collection.complete = true; },
  };
}

export function collectNodes(sourceCode: Readonly<TSESLint.SourceCode>): CollectedNodes {
  const program = sourceCode.ast;
  const existing = collections.get(program);
  // ESLint's traversal fires every node event before the first Program:exit; a model requested
  // before then (or without the listeners) gets a walk of its own.
  if (existing?.complete) return existing;
  const collection = emptyCollection();
  walk(program, sourceCode.visitorKeys, collection);
  collection.complete = true;
  collections.set(program, collection);
  return collection;
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
