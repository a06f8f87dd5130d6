// require-fencing-token: a write made under a lock that can expire, with no fencing condition.

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { isUsedOnlyAsCondition } from '../fixes/edits.js';
import { FENCED_ACQUIRE_SCRIPT } from '../fixes/scripts.js';
import { fenceInsertions, renderPlaceholder, type PlaceholderStyle } from '../fixes/sql-templates.js';
import { asRedisStringArgument, renderEvalCall, renderScriptLiteral } from '../fixes/templates.js';
import { getLockModel } from '../model/index.js';
import { redisIndex } from '../model/indexes.js';
import type { RedisModel } from '../model/redis-model.js';
import { DEFAULT_FENCE_COLUMNS, readSharedSettings, type RawSharedSettings } from '../model/settings.js';
import { heldLocks, writesUnder, type HeldLock } from '../model/sql/critical-sections.js';
import { getSqlModel, type SqlWrite } from '../model/sql/index.js';
import { constInitializer, skipTypeWrappers } from '../util/ast.js';
import { createRule } from '../util/create-rule.js';
import { relatedData } from '../util/related.js';

export type MessageId = 'unfencedWrite' | 'lateFence' | 'useFencedAcquire';
export type Options = [{ fenceColumns?: string[]; efficiencyLocks?: string[] }];

const EFFICIENCY_MARKER = /\blocksmith:\s*efficiency\b/u;

export default createRule<Options, MessageId>({
  name: 'require-fencing-token',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require writes made under an expiring lock to carry a fencing token',
      recommended: 'warn',
    },
    hasSuggestions: true,
    defaultOptions: [{}],
    schema: [{
      type: 'object',
      additionalProperties: false,
      properties: {
        fenceColumns: {
          type: 'array',
          items: { type: 'string' },
          description: 'Columns that hold the fencing token in SQL writes. Default: `["fence", "fencing_token"]` (or `settings.locksmith.fenceColumns`).',
        },
        efficiencyLocks: {
          type: 'array',
          items: { type: 'string' },
          description: 'Names or /patterns/ of lock keys held for efficiency only, whose writes need no fence.',
        },
      },
    }],
    messages: {
      unfencedWrite: 'This {{write}} runs under the {{lock}} lock taken on line {{line}}, with no fencing condition: a holder whose lock expired (a pause, a slow call) still writes after its successor. Compare a fence minted at acquisition (`{{column}} < $n`) in its WHERE.',
      lateFence: 'The fence this write compares is minted by a separate `INCR` after the lock was taken on line {{line}}: a holder paused between the two mints a larger number than its successor, and its stale write wins. Mint the fence atomically with the acquisition.',
      useFencedAcquire: 'Acquire with the fenced acquire script and write with `{{column}} < {{placeholder}}`',
    },
  },
  create(context, [options]) {
    const overrides: RawSharedSettings = {};
    if (options.fenceColumns) overrides.fenceColumns = options.fenceColumns;
    if (options.efficiencyLocks) overrides.efficiencyLocks = options.efficiencyLocks;
    const settings = readSharedSettings(context, overrides);
    const fenceColumns = settings.fenceColumns.length > 0 ? settings.fenceColumns : DEFAULT_FENCE_COLUMNS;
    return {
      'Program:exit'() {
        const sql = getSqlModel(context);
        // No write, nothing to fence: skip building the Redis half's lock list.
        if (sql.writes.length === 0) return;
        const sourceCode = context.sourceCode;
        const redis = getLockModel(context).redis;
        const reported = new Set<TSESTree.Node>();
        for (const lock of heldLocks(sourceCode, redis, sql)) {
          // Advisory locks end with their connection: a write on it cannot outlive the lock.
          if (lock.kind === 'advisory' || isEfficiencyLock(sourceCode, lock, settings.efficiencyLocks)) continue;
          const line = String(lock.node.loc.start.line);
          for (const write of writesUnder(lock, sql.writes)) {
            // SQL the parser cannot read is no finding.
            if (reported.has(write.node) || (write.query && !write.statement) || write.idempotent) continue;
            if (write.isFenced(fenceColumns)) {
              if (lock.mintsFence || !fenceMintedAfter(sourceCode, redis, write, fenceColumns, lock)) continue;
              reported.add(write.node);
              context.report({ node: write.node, messageId: 'lateFence', data: { line, ...relatedData({ message: 'The lock is acquired here, before the fence is minted', node: lock.node, role: 'acquisition' }) } });
              continue;
            }
            reported.add(write.node);
            const column = fenceColumns[0] ?? 'fence';
            const fix = fencedFix(context, lock, write, column);
            context.report({
              node: write.node,
              messageId: 'unfencedWrite',
              data: { write: describeWrite(write), lock: lockName(lock), line, column, ...relatedData({ message: 'The lock this write trusts is acquired here', node: lock.node, role: 'acquisition' }) },
              // A suggestion: it changes both the acquisition and the write that reach the servers.
              suggest: fix ? [{ messageId: 'useFencedAcquire', data: { column, placeholder: fix.placeholder }, fix: fix.apply }] : [],
            });
          }
        }
      },
    };
  },
});

type Context = Readonly<TSESLint.RuleContext<MessageId, Options>>;

function describeWrite(write: SqlWrite): string {
  if (write.statement) return `\`${write.statement.kind.toUpperCase()}\`${write.table ? ` of \`${write.table}\`` : ''}`;
  return `\`${write.orm?.method ?? 'write'}\`${write.table ? ` of \`${write.table}\`` : ''}`;
}

function lockName(lock: HeldLock): string {
  switch (lock.kind) {
    case 'redlock': return 'Redlock';
    case 'redis-semaphore': return 'redis-semaphore';
    case 'lock-table': return `\`${lock.keyText ?? 'lock table'}\` table`;
    default: return lock.keyText ? `\`${lock.keyText}\`` : 'Redis';
  }
}

/** `// locksmith: efficiency` on or above the acquisition, or a key matching `efficiencyLocks`. */
function isEfficiencyLock(sourceCode: Readonly<TSESLint.SourceCode>, lock: HeldLock, patterns: readonly RegExp[]): boolean {
  const line = lock.node.loc.start.line;
  let statement: TSESTree.Node = lock.node;
  while (statement.parent && statement.parent.type !== AST_NODE_TYPES.BlockStatement && statement.parent.type !== AST_NODE_TYPES.Program) statement = statement.parent;
  const firstLine = statement.loc.start.line;
  const marked = sourceCode.getAllComments().some((comment) => EFFICIENCY_MARKER.test(comment.value)
    && comment.loc.end.line >= firstLine - 1 && comment.loc.start.line <= line);
  return marked || (lock.keyText !== undefined && patterns.some((pattern) => pattern.test(lock.keyText!)));
}

/** The fence compared in the write comes from an `INCR` that runs after the acquisition. */
function fenceMintedAfter(sourceCode: Readonly<TSESLint.SourceCode>, redis: RedisModel, write: SqlWrite, fenceColumns: readonly string[], lock: HeldLock): boolean {
  const comparison = write.statement?.where.find((candidate) => fenceColumns.includes(candidate.column) && candidate.operator === '<');
  if (!comparison?.parameter || !write.query) return false;
  let expression = write.query.parameters[comparison.parameter - 1];
  for (let depth = 0; expression && depth < 4; depth++) {
    expression = skipTypeWrappers(expression);
    if (expression.type === AST_NODE_TYPES.AwaitExpression) {
      expression = expression.argument;
      continue;
    }
    if (expression.type === AST_NODE_TYPES.Identifier) {
      expression = constInitializer(sourceCode, expression);
      continue;
    }
    if (expression.type === AST_NODE_TYPES.CallExpression) {
      const call = expression;
      const command = redisIndex(redis).commandByCall.get(call);
      return command !== undefined && (command.name === 'INCR' || command.name === 'INCRBY') && call.range[0] > lock.node.range[1];
    }
    return false;
  }
  return false;
}

interface FencedFix {
  readonly placeholder: string;
  readonly apply: (fixer: TSESLint.RuleFixer) => TSESLint.RuleFix[];
}

/**
 * Swaps a `SET key token NX PX ttl` whose result is only tested for the fenced acquire script (the
 * result becomes the fence, 0 when the lock is taken, so tests keep their meaning) and adds the fence
 * to an UPDATE's SET list and WHERE, in the query's placeholder style.
 */
function fencedFix(context: Context, lock: HeldLock, write: SqlWrite, column: string): FencedFix | undefined {
  const sourceCode = context.sourceCode;
  const acquisition = lock.redis;
  const command = acquisition?.command;
  const statement = write.statement;
  const query = write.query;
  if (!acquisition || acquisition.kind !== 'set-nx' || !command?.set || command.client.chain || command.callback || !command.key || !command.value) return undefined;
  if (!statement || !query || statement.kind !== 'update' || statement.setListEnd === undefined) return undefined;
  // The acquisition's result must be stored in a const that is only ever tested, to carry the fence.
  const declarator = skipAwait(command.call).parent;
  if (declarator?.type !== AST_NODE_TYPES.VariableDeclarator || declarator.id.type !== AST_NODE_TYPES.Identifier || !isUsedOnlyAsCondition(sourceCode, command.call)) return undefined;
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
  const afterWhere = query.sql.toSourceOffset(statement.hasWhere ? statement.whereEnd ?? -1 : statement.whereInsertAt ?? -1);
  if (afterSet === undefined || afterWhere === undefined) return undefined;
  const valuesEdit = style === 'dollar'
    ? bindFence(query.node, fence, number)
    : style === 'question'
      // `?` bindings are positional: the fence goes in twice, where its two placeholders fall.
      ? bindFenceTwice(sourceCode, query.node, fence, placeholdersBefore(query.sql.text, statement.setListEnd), placeholdersBefore(query.sql.text, statement.hasWhere ? statement.whereEnd ?? 0 : statement.whereInsertAt ?? 0))
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
  if (array.type !== AST_NODE_TYPES.ArrayExpression || array.elements.length !== number - 1 || array.elements.some((element) => element?.type === AST_NODE_TYPES.SpreadElement)) return undefined;
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
  if (array.type !== AST_NODE_TYPES.ArrayExpression || array.elements.some((element) => !element || element.type === AST_NODE_TYPES.SpreadElement)) return undefined;
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

