// Finds SQL where users write it: text passed to query methods, tagged templates, module constants.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { constInitializer, methodCallParts, propertyName, skipTypeWrappers } from '../../util/ast.js';
import type { ImportTable } from '../nouns/vocabulary.js';
import { buildSqlText, looksLikeSql, type SqlSourcePart, type SqlText } from '../../sql-syntax/index.js';
import {
  DRIVER_PLACEHOLDER_LIBRARIES,
  DRIVER_PLACEHOLDER_METHODS,
  maySendTaggedTemplates,
  QUERY_METHODS,
  SPREAD_VALUES_METHODS,
  sqlBuilderLibraryOf,
  TAG_QUERY_METHODS,
  TEMPLATE_RUN_METHODS,
} from '../tables/sql-clients.js';
import type { SenderResolver } from './senders.js';
import type { SqlSender, SqlSourceNode, FoundQuery } from '../nouns/sql-items.js';

export function findQuery(
  node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression,
  sourceCode: Readonly<TSESLint.SourceCode>,
  imports: ImportTable,
  senders: SenderResolver,
): FoundQuery | undefined {
  if (node.type === AST_NODE_TYPES.TaggedTemplateExpression) return taggedQuery(node, sourceCode, imports, senders);
  const parts = methodCallParts(node);
  if (!parts) return undefined;
  const first = node.arguments[0];
  // kysely: sql`...`.execute(db)
  if (TEMPLATE_RUN_METHODS.has(parts.method) && skipTypeWrappers(parts.receiver).type === AST_NODE_TYPES.TaggedTemplateExpression) {
    const template = skipTypeWrappers(parts.receiver) as TSESTree.TaggedTemplateExpression;
    // postgres.js's own `.execute()` takes no argument; with one, the template is a builder (kysely) run on it.
    if (!first || !startsLikeSql(template.quasi) || (builderLibrary(template.tag, imports) === undefined && !isSqlTagName(template.tag)))
      return undefined;
    return fromTemplate(node, parts.method, senders.sender(first), template.quasi, true, sourceCode, undefined);
  }
  if (!QUERY_METHODS.has(parts.method) || !first) return undefined;
  const argument = skipTypeWrappers(first);
  if (argument.type === AST_NODE_TYPES.TaggedTemplateExpression) {
    if (!startsLikeSql(argument.quasi) || (builderLibrary(argument.tag, imports) === undefined && !isSqlTagName(argument.tag)))
      return undefined;
    return fromTemplate(node, parts.method, senders.sender(parts.receiver), argument.quasi, true, sourceCode, undefined);
  }
  // Cheap checks first: most calls named `query` or `execute` carry no SQL text at all.
  const source = sqlSource(argument, sourceCode);
  if (!source || !startsLikeSql(source)) return undefined;
  const sender = senders.sender(parts.receiver);
  const driverPlaceholders = DRIVER_PLACEHOLDER_LIBRARIES.has(sender.library) || DRIVER_PLACEHOLDER_METHODS.has(parts.method);
  const sql = buildSqlText(sourceParts(source, sourceCode), { driverPlaceholders });
  const { values, options } = bindings(node, parts.method, sql, first);
  const parameters: (TSESTree.Node | undefined)[] = [];
  if (source.type === AST_NODE_TYPES.TemplateLiteral) {
    sql.interpolationNumbers.forEach((number, index) => (parameters[number - 1] = source.expressions[index]));
  }
  values.forEach((value, index) => {
    if (value && parameters[index] === undefined) parameters[index] = value;
  });
  return { node, method: parts.method, sender, source, tagged: false, sql, parameters, options };
}

function taggedQuery(
  node: TSESTree.TaggedTemplateExpression,
  sourceCode: Readonly<TSESLint.SourceCode>,
  imports: ImportTable,
  senders: SenderResolver,
): FoundQuery | undefined {
  const tag = skipTypeWrappers(node.tag);
  if (!startsLikeSql(node.quasi)) return undefined;
  // A builder template is sent by whoever executes it; findQuery handles those calls.
  if (builderLibrary(tag, imports) !== undefined) return undefined;
  const parent = node.parent;
  if (parent.type === AST_NODE_TYPES.CallExpression && parent.arguments.some((argument) => argument === node)) return undefined;
  // sql`...`.execute(db): a builder template run on `db`; findQuery reads it from the call.
  if (
    parent.type === AST_NODE_TYPES.MemberExpression &&
    parent.object === node &&
    TEMPLATE_RUN_METHODS.has(propertyName(parent) ?? '') &&
    parent.parent.type === AST_NODE_TYPES.CallExpression &&
    parent.parent.arguments.length > 0
  )
    return undefined;
  if (tag.type === AST_NODE_TYPES.MemberExpression) {
    const method = propertyName(tag);
    if (method !== undefined && TAG_QUERY_METHODS.has(method)) {
      return fromTemplate(node, method, senders.sender(tag.object), node.quasi, true, sourceCode, undefined);
    }
    // postgres.js: sql.unsafe is a call; `sql.begin` etc. are not tags. A member that holds the
    // instance itself (`this.sql`, `db.sql`) is the tag; any other member tag is unknown.
    const sender = senders.sender(tag);
    return sender.library !== 'unknown' && maySendTaggedTemplates(sender.library)
      ? fromTemplate(node, 'sql', sender, node.quasi, true, sourceCode, undefined)
      : undefined;
  }
  if (tag.type !== AST_NODE_TYPES.Identifier) return undefined;
  const sender = senders.sender(tag);
  // postgres.js: the instance (or a reserved connection, or a transaction's handle) is the tag.
  if (!maySendTaggedTemplates(sender.library)) return undefined;
  if (sender.library === 'unknown' && !isSqlTagName(tag) && sender.kind === 'unknown') return undefined;
  return fromTemplate(node, 'sql', sender, node.quasi, true, sourceCode, undefined);
}

function fromTemplate(
  node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression,
  method: string,
  sender: SqlSender,
  quasi: TSESTree.TemplateLiteral,
  tagged: boolean,
  sourceCode: Readonly<TSESLint.SourceCode>,
  options: TSESTree.ObjectExpression | undefined,
): FoundQuery {
  const sql = buildSqlText(sourceParts(quasi, sourceCode), { driverPlaceholders: false });
  const parameters: (TSESTree.Node | undefined)[] = [];
  sql.interpolationNumbers.forEach((number, index) => (parameters[number - 1] = quasi.expressions[index]));
  return { node, method, sender, source: quasi, tagged, sql, parameters, options };
}

/** The literal holding SQL text: inline, or a module constant the argument names. */
function sqlSource(argument: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>): SqlSourceNode | undefined {
  let expression = skipTypeWrappers(argument);
  if (expression.type === AST_NODE_TYPES.Identifier) {
    const init = constInitializer(sourceCode, expression);
    if (!init) return undefined;
    expression = skipTypeWrappers(init);
  }
  // pg QueryConfig: { text: '...', values: [...] }
  if (expression.type === AST_NODE_TYPES.ObjectExpression) {
    const text = objectProperty(expression, 'text');
    return text ? sqlSource(text, sourceCode) : undefined;
  }
  if (expression.type === AST_NODE_TYPES.Literal && typeof expression.value === 'string') return expression;
  if (expression.type === AST_NODE_TYPES.TemplateLiteral) return expression;
  return undefined;
}

export function sourceParts(source: SqlSourceNode, sourceCode: Readonly<TSESLint.SourceCode>): SqlSourcePart[] {
  if (source.type === AST_NODE_TYPES.Literal) {
    const raw = source.raw.slice(1, -1);
    return [
      {
        kind: 'text',
        text: source.value,
        sourceStart: source.range[0] + 1,
        sourceEnd: source.range[1] - 1,
        verbatim: raw === source.value,
      },
    ];
  }
  const parts: SqlSourcePart[] = [];
  source.quasis.forEach((quasi, index) => {
    // A quasi's range covers its delimiters (` or } before, ${ or ` after).
    const start = quasi.range[0] + 1;
    const end = quasi.range[1] - (quasi.tail ? 1 : 2);
    // An invalid escape leaves no cooked text; such a template is not SQL we can read.
    const cooked = quasi.value.cooked ?? '';
    parts.push({ kind: 'text', text: cooked, sourceStart: start, sourceEnd: end, verbatim: sourceCode.text.slice(start, end) === cooked });
    const expression = source.expressions[index];
    const next = source.quasis[index + 1];
    if (expression && next) parts.push({ kind: 'parameter', sourceStart: end, sourceEnd: next.range[0] + 1 });
  });
  return parts;
}

/** Values bound to the placeholders, by position; and an options object if one follows. */
function bindings(
  call: TSESTree.CallExpression,
  method: string,
  sql: SqlText,
  first: TSESTree.Node,
): { values: (TSESTree.Node | undefined)[]; options: TSESTree.ObjectExpression | undefined } {
  const rest = call.arguments.slice(1).map((argument) => skipTypeWrappers(argument));
  if (SPREAD_VALUES_METHODS.has(method)) return { values: rest, options: undefined };
  let values: (TSESTree.Node | undefined)[] = [];
  let options: TSESTree.ObjectExpression | undefined;
  const firstExpression = skipTypeWrappers(first);
  if (firstExpression.type === AST_NODE_TYPES.ObjectExpression) {
    const valuesProperty = objectProperty(firstExpression, 'values');
    if (valuesProperty?.type === AST_NODE_TYPES.ArrayExpression) values = valuesProperty.elements.map((element) => element ?? undefined);
  }
  for (const argument of rest) {
    if (argument.type === AST_NODE_TYPES.ArrayExpression) values = argument.elements.map((element) => element ?? undefined);
    else if (argument.type === AST_NODE_TYPES.ObjectExpression) {
      // Sequelize: { replacements, bind, transaction }; knex: named bindings object.
      const replacements = objectProperty(argument, 'replacements') ?? objectProperty(argument, 'bind');
      if (replacements?.type === AST_NODE_TYPES.ArrayExpression) values = replacements.elements.map((element) => element ?? undefined);
      const named =
        replacements?.type === AST_NODE_TYPES.ObjectExpression
          ? replacements
          : DRIVER_PLACEHOLDER_METHODS.has(method)
            ? argument
            : undefined;
      if (named) {
        for (const [name, number] of sql.namedParameters) values[number - 1] = objectProperty(named, name);
      }
      options = argument;
    }
  }
  return { values, options };
}

export function objectProperty(object: TSESTree.ObjectExpression, name: string): TSESTree.Node | undefined {
  for (const property of object.properties) {
    if (property.type !== AST_NODE_TYPES.Property || property.computed) continue;
    const key = property.key.type === AST_NODE_TYPES.Identifier ? property.key.name : String(property.key.value);
    if (key === name) return property.value;
  }
  return undefined;
}

/** The library whose `sql` builder this tag is (`sql`, `Prisma.sql`, `sql.unsafe`, `sql.typeAlias('x')`). */
function builderLibrary(tag: TSESTree.Node, imports: ImportTable): string | undefined {
  let expression = skipTypeWrappers(tag);
  if (expression.type === AST_NODE_TYPES.CallExpression) expression = skipTypeWrappers(expression.callee);
  if (expression.type === AST_NODE_TYPES.MemberExpression) expression = skipTypeWrappers(expression.object);
  if (expression.type !== AST_NODE_TYPES.Identifier) return undefined;
  const binding = imports.get(expression.name);
  if (!binding) return undefined;
  return sqlBuilderLibraryOf(binding.source);
}

function isSqlTagName(tag: TSESTree.Node): boolean {
  const expression = skipTypeWrappers(tag);
  return expression.type === AST_NODE_TYPES.Identifier && /^(?:sql|tx|trx|reserved|db)$/u.test(expression.name);
}

/** The text's start reads like a statement (what `looksLikeSql` screens), before anything costlier runs. */
function startsLikeSql(source: SqlSourceNode): boolean {
  const head = source.type === AST_NODE_TYPES.Literal ? source.value : (source.quasis[0]?.value.cooked ?? '');
  // A template may open with an interpolation (`${cte} UPDATE ...`): let those through.
  return looksLikeSql(head) || (source.type === AST_NODE_TYPES.TemplateLiteral && head.trim() === '' && source.expressions.length > 0);
}
