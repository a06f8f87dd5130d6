// The fenced acquisition and write: a `SET NX` swapped for the fenced acquire script, whose result
// becomes the fence, and an UPDATE that stores and compares it, bound in the query's placeholder style.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import type { Lock } from '../model/nouns/lock-types.js';
import type { SqlWrite } from '../model/nouns/sql-items.js';
import { skipTypeWrappers } from '../util/ast.js';
import { isUsedOnlyAsCondition } from '../model/facts/result-flow.js';
import { FENCED_ACQUIRE_SCRIPT } from './scripts.js';
import { fenceInsertions, renderPlaceholder, type PlaceholderStyle } from './sql-templates.js';
import { asRedisStringArgument, renderEvalCall, renderScriptLiteral } from './templates.js';

export interface FencedFix {
  readonly placeholder: string;
  readonly apply: (fixer: TSESLint.RuleFixer) => TSESLint.RuleFix[];
}

/**
 * Swaps a `SET key token NX PX ttl` whose result is only tested for the fenced acquire script (the
 * result becomes the fence, 0 when the lock is taken, so tests keep their meaning) and adds the fence
 * to an UPDATE's SET list and WHERE, in the query's placeholder style.
 */
export function fencedFix(sourceCode: Readonly<TSESLint.SourceCode>, lock: Lock, write: SqlWrite, column: string): FencedFix | undefined {
  const acquisition = lock.redis;
  const command = acquisition?.command;
  const statement = write.statement;
  const query = write.query;
  if (
    !acquisition ||
    acquisition.kind !== 'set-nx' ||
    !command?.set ||
    command.client.chain ||
    command.callback ||
    !command.key ||
    !command.value
  )
    return undefined;
  if (!statement || !query || statement.kind !== 'update' || statement.setListEnd === undefined) return undefined;
  // The acquisition's result must be stored in a const that is only ever tested, to carry the fence.
  const declarator = skipAwait(command.call).parent;
  if (
    declarator?.type !== AST_NODE_TYPES.VariableDeclarator ||
    declarator.id.type !== AST_NODE_TYPES.Identifier ||
    !isUsedOnlyAsCondition(sourceCode, command.call)
  )
    return undefined;
  const fence = declarator.id.name;
  const expiry = command.set.expiry;
  if (!expiry?.value || (expiry.unit !== 'PX' && expiry.unit !== 'EX')) return undefined;
  const ttlText = expiry.unit === 'PX' ? sourceCode.getText(expiry.value) : `${sourceCode.getText(expiry.value)} * 1000`;

  const style: PlaceholderStyle = query.tagged ? 'tagged' : query.sql.questionMarks ? 'question' : 'dollar';
  if (style === 'question' && (query.sql.namedParameters.size > 0 || /\$\d/u.test(sourceCode.getText(query.source)))) return undefined;
  const number = query.sql.parameterCount + 1;
  const placeholder = renderPlaceholder(style, { number, expression: fence });
  const insertions = fenceInsertions(placeholder, column, statement.hasWhere);
  const afterSet = query.sql.toSourceOffset(statement.setListEnd);
  const afterWhere = query.sql.toSourceOffset(statement.hasWhere ? (statement.whereEnd ?? -1) : (statement.whereInsertAt ?? -1));
  if (afterSet === undefined || afterWhere === undefined) return undefined;
  const valuesEdit =
    style === 'dollar'
      ? bindFence(query.node, fence, number)
      : style === 'question'
        ? // `?` bindings are positional: the fence goes in twice, where its two placeholders fall.
          bindFenceTwice(
            sourceCode,
            query.node,
            fence,
            placeholdersBefore(query.sql.text, statement.setListEnd),
            placeholdersBefore(query.sql.text, statement.hasWhere ? (statement.whereEnd ?? 0) : (statement.whereInsertAt ?? 0)),
          )
        : null;
  if (valuesEdit === undefined) return undefined;

  const keyText = sourceCode.getText(command.key);
  const call = renderEvalCall(command.dialect, {
    client: sourceCode.getText(command.receiver),
    // The script goes in at the call: a module constant's insertion would merge with the call's edit
    // into one replacement spanning the file from the imports to here.
    script: renderScriptLiteral(FENCED_ACQUIRE_SCRIPT),
    keys: [keyText, fenceKeyText(keyText)],
    // node-redis sends only strings: a numeric TTL must be converted or the call throws.
    args: [sourceCode.getText(command.value), asRedisStringArgument(command.dialect, ttlText)],
  });
  return {
    placeholder,
    apply: (fixer) => {
      const fixes = [
        fixer.replaceText(command.call, call),
        fixer.insertTextAfterRange([afterSet, afterSet], insertions.afterSet),
        fixer.insertTextAfterRange([afterWhere, afterWhere], insertions.afterWhere),
      ];
      if (valuesEdit) fixes.push(valuesEdit(fixer));
      return fixes;
    },
  };
}

function skipAwait(node: TSESTree.Node): TSESTree.Node {
  return node.parent?.type === AST_NODE_TYPES.AwaitExpression ? node.parent : node;
}

/** Appends the fence to a `$n` query's values array (or adds one); undefined when the call has another shape. */
function bindFence(node: TSESTree.Node, fence: string, number: number): ((fixer: TSESLint.RuleFixer) => TSESLint.RuleFix) | undefined {
  if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const [text, values] = node.arguments;
  if (!text) return undefined;
  if (!values) return number === 1 ? (fixer) => fixer.insertTextAfter(text, `, [${fence}]`) : undefined;
  const array = skipTypeWrappers(values);
  if (
    array.type !== AST_NODE_TYPES.ArrayExpression ||
    array.elements.length !== number - 1 ||
    array.elements.some((element) => element?.type === AST_NODE_TYPES.SpreadElement)
  )
    return undefined;
  const last = array.elements.at(-1);
  return last ? (fixer) => fixer.insertTextAfter(last, `, ${fence}`) : (fixer) => fixer.replaceText(array, `[${fence}]`);
}

/** How many bound parameters the normalised text has before `offset` (each `?` became one `$n`). */
function placeholdersBefore(text: string, offset: number): number {
  return [...text.slice(0, offset).matchAll(/\$\d+/gu)].length;
}

/** knex `raw(text, [..])`: inserts the fence at the two binding positions of its placeholders. */
function bindFenceTwice(
  sourceCode: Readonly<TSESLint.SourceCode>,
  node: TSESTree.Node,
  fence: string,
  first: number,
  second: number,
): ((fixer: TSESLint.RuleFixer) => TSESLint.RuleFix) | undefined {
  if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const values = node.arguments[1];
  if (!values) return undefined;
  const array = skipTypeWrappers(values);
  if (
    array.type !== AST_NODE_TYPES.ArrayExpression ||
    array.elements.some((element) => !element || element.type === AST_NODE_TYPES.SpreadElement)
  )
    return undefined;
  const texts = array.elements.map((element) => sourceCode.getText(element!));
  if (second > texts.length) return undefined;
  const bound = [...texts.slice(0, first), fence, ...texts.slice(first, second), fence, ...texts.slice(second)];
  return (fixer) => fixer.replaceText(array, `[${bound.join(', ')}]`);
}

/**
 * The counter key, in the lock key's hash slot: `{k}:fence` hashes `k`, the lock key's own slot; a
 * key that already carries a hash tag keeps it.
 */
function fenceKeyText(keyText: string): string {
  const literal = /^(['"])(.*)\1$/su.exec(keyText);
  if (literal) {
    const [, quote, key] = literal as unknown as [string, string, string];
    const tag = /\{([^}]+)\}/u.exec(key);
    return tag ? `${quote}{${tag[1]!}}:fence${quote}` : `${quote}{${key}}:fence${quote}`;
  }
  if (keyText.startsWith('`') && keyText.endsWith('`')) return `\`{${keyText.slice(1, -1)}}:fence\``;
  return `\`{\${${keyText}}}:fence\``;
}
