// Binds one more value into an existing SQL query, in the query's own placeholder dialect.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import type { SqlQuery } from '../model/nouns/sql-items.js';
import { skipTypeWrappers } from '../util/ast.js';
import { renderPlaceholder, type PlaceholderStyle } from './sql-templates.js';
import { DRIVER_PLACEHOLDER_METHODS, sqlClientSemantics } from '../model/tables/sql-clients.js';

export interface ParameterBinding {
  /** What goes into the SQL text: `$3`, `${owner}` or `?`. */
  readonly placeholder: string;
  /** The edit that adds the value to the call's values array, when the dialect needs one. */
  readonly bind: ((fixer: TSESLint.RuleFixer) => TSESLint.RuleFix) | undefined;
}

/** The query's placeholder dialect; `undefined` when the text mixes them or the library's is unclear. */
export function placeholderStyleOf(query: SqlQuery, sourceCode: Readonly<TSESLint.SourceCode>): PlaceholderStyle | undefined {
  if (query.tagged) return 'tagged';
  if (query.sql.namedParameters.size > 0) return undefined;
  const rawBindings = sqlClientSemantics(query.sender.library)?.rawBindings;
  if (query.sql.questionMarks || rawBindings === 'question' || DRIVER_PLACEHOLDER_METHODS.has(query.method)) {
    return /\$\d/u.test(sourceCode.getText(query.source)) ? undefined : 'question';
  }
  // Sequelize's `?` replacements and `$n` binds both exist: only a text that already uses one is clear.
  if (rawBindings === 'either' && query.sql.parameterCount === 0) return undefined;
  return 'dollar';
}

/**
 * Binds `expression` (source text) at `sqlOffset` of the query's normalised text. `$n` queries reuse
 * a parameter already bound to the same expression, else append `$<count + 1>` to the values array;
 * `?` queries insert the value where its placeholder falls; tagged templates interpolate it.
 * `undefined` when the values are not a plain array literal the fix can extend.
 */
export function bindParameter(
  sourceCode: Readonly<TSESLint.SourceCode>,
  query: SqlQuery,
  expression: string,
  sqlOffset: number,
): ParameterBinding | undefined {
  const style = placeholderStyleOf(query, sourceCode);
  if (style === undefined) return undefined;
  if (style === 'tagged') return { placeholder: renderPlaceholder(style, { number: 0, expression }), bind: undefined };
  if (query.node.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const [text, values] = query.node.arguments;
  const count = query.sql.parameterCount;
  if (!text) return undefined;
  if (style === 'dollar') {
    const existing = query.parameters.findIndex((parameter) => parameter !== undefined && sourceCode.getText(parameter) === expression);
    if (existing >= 0) return { placeholder: renderPlaceholder(style, { number: existing + 1, expression }), bind: undefined };
  }
  const placeholder = renderPlaceholder(style, { number: count + 1, expression });
  if (!values) return count === 0 ? { placeholder, bind: (fixer) => fixer.insertTextAfter(text, `, [${expression}]`) } : undefined;
  const array = skipTypeWrappers(values);
  if (
    array.type !== AST_NODE_TYPES.ArrayExpression ||
    array.elements.length !== count ||
    array.elements.some((element) => !element || element.type === AST_NODE_TYPES.SpreadElement)
  )
    return undefined;
  const elements = array.elements as TSESTree.Expression[];
  const texts = elements.map((element) => sourceCode.getText(element));
  const index = style === 'question' ? [...query.sql.text.slice(0, sqlOffset).matchAll(/\$\d+/gu)].length : count;
  const bound = [...texts.slice(0, index), expression, ...texts.slice(index)];
  return { placeholder, bind: (fixer) => fixer.replaceText(array, `[${bound.join(', ')}]`) };
}
