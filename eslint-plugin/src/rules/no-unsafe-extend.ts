// no-unsafe-extend: renewing a held lock without atomically checking that this holder still owns it.

import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { isExpressionAvailableAt } from '../fixes/edits.js';
import { compareAndSetFix } from '../fixes/primitive-call.js';
import { scriptCallFix, tokenTextAt } from '../fixes/script-call.js';
import { asRedisStringArgument, compareSetTtlArgument } from '../fixes/templates.js';
import { tokenByName } from '../fixes/token-by-name.js';
import { scriptTtlInMilliseconds, setTtlInMilliseconds, ttlInMilliseconds } from '../fixes/ttl.js';
import {
  acquiredAt,
  admits,
  type Expiry,
  getLockModel,
  isHousekeeping,
  isLockKey,
  isUnownedRenewal,
  isUnsafeRenewal,
  ownerCheckAround,
  type RedisModel,
} from '../model/index.js';
import { ownerComparisonFix } from '../fixes/sql-owner-compare.js';
import { luaCompareFirstEdit } from '../fixes/lua-compare-first.js';
import { createRule, type LocksmithRuleContext } from '../rule-support/create-rule.js';
import { luaLoc, luaModelOf } from '../rule-support/lua-report.js';
import { relatedData } from '../util/related.js';

export type MessageId =
  | 'plainExtend'
  | 'checkThenExtend'
  | 'existsOnlyExtend'
  | 'uncheckedScript'
  | 'compareSetDropsTtl'
  | 'useCompareAndExpire'
  | 'useCompareAndSet'
  | 'unownedRowRenewal'
  | 'compareOwner'
  | 'compareInScript';
export type Options = [];

export default createRule<Options, MessageId>({
  name: 'no-unsafe-extend',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow renewing a lock without atomically comparing its token',
      recommended: 'error',
    },
    hasSuggestions: true,
    schema: [],
    messages: {
      plainExtend:
        "`{{command}}` renews the lock even when another holder owns it now: if this holder's lock already expired, it extends the next holder's lock instead.",
      checkThenExtend:
        "The owner check and the `{{command}}` are two commands: the lock can expire and pass to another holder between them, and this `{{command}}` then extends that holder's lock.",
      existsOnlyExtend:
        "`SET … XX` renews the lock whenever the key exists, whoever holds it: if this holder's lock already expired and another holder took it, this write replaces that holder's token and both run as holders.",
      uncheckedScript:
        "This script renews the lock without first comparing its value with the caller's token, so it extends whoever holds the lock now.",
      compareSetDropsTtl:
        "This `SET … IFEQ` has no `PX`/`EX`: it compares the token but removes the lock's expiry, so a holder that then crashes keeps the lock forever.",
      unownedRowRenewal:
        "This `UPDATE` extends the lock row whoever owns it now: if this holder's lock expired and another holder took the row over, the heartbeat extends that holder's lock and tells this one it still holds it.",
      compareOwner: "Extend only this holder's row: add `AND {{column}} = {{value}}` to the `WHERE`",
      useCompareAndExpire: 'Renew with the compare-and-pexpire script instead of `{{command}}`',
      useCompareAndSet: "Renew with the server's `SET … IFEQ … PX`, which renews only while the lock holds this token",
      compareInScript:
        "Renew only while the lock holds the caller's token: compare it with `{{token}}` first (callers pass their token there)",
    },
  },
  // In a `.lua` file: each EXPIRE/PEXPIRE of a `KEYS[n]` key that no owner comparison guards, in a
  // script that renews (one that also sets or counts the key acquires it, as on the JavaScript side).
  lua(context) {
    return {
      'Chunk:exit'() {
        const model = luaModelOf(context);
        for (const renewal of model?.unguardedRenewals ?? []) {
          const edit = luaCompareFirstEdit(context.sourceCode.text, context.sourceCode.ast, renewal);
          context.report({
            loc: luaLoc(context, renewal.range),
            messageId: 'plainExtend',
            data: { command: renewal.command },
            // A suggestion, not an autofix: the script's callers must start passing their token.
            suggest: edit
              ? [
                  {
                    messageId: 'compareInScript',
                    data: { token: edit.tokenArgument },
                    fix: (fixer) => fixer.replaceTextRange(edit.range, edit.text),
                  },
                ]
              : [],
          });
        }
      },
    };
  },
  create(context) {
    return {
      'Program:exit'() {
        const lockModel = getLockModel(context);
        const { redis: model, settings, locks } = lockModel;
        const serverSets = admits(settings.redis, 'SET IFEQ');
        for (const expiry of model.expiries) {
          if (!isUnsafeRenewal(context.sourceCode, model, expiry)) continue;
          // A test's setup or teardown, or `SET` then `EXPIRE`: a write with an expiry, not a renewal.
          if (isHousekeeping(model, expiry)) continue;
          const checkedBy = expiry.kind === 'expire' ? ownerCheckAround(context.sourceCode, model, expiry) : undefined;
          if (!checkedBy && !isLockKey(model, expiry.key!)) continue;
          const command = expiry.command!;
          const messageId: MessageId = expiry.dropsTtl
            ? 'compareSetDropsTtl'
            : expiry.kind === 'script'
              ? 'uncheckedScript'
              : expiry.kind === 'overwrite'
                ? 'existsOnlyExtend'
                : checkedBy
                  ? 'checkThenExtend'
                  : 'plainExtend';
          // A TTL-dropping SET … IFEQ already compares: which TTL it meant is not ours to guess.
          const renewal = expiry.dropsTtl ? undefined : renewalParts(context, model, expiry, checkedBy);
          const suggest: TSESLint.SuggestionReportDescriptor<MessageId>[] = [];
          // The server's own compare-and-set first, when the configured server has it.
          const serverFix =
            renewal && serverSets
              ? compareAndSetFix(context.sourceCode, {
                  command,
                  keyText: renewal.keyText,
                  tokenText: renewal.tokenText,
                  ttlText: renewal.setTtlText,
                })
              : undefined;
          if (serverFix) suggest.push({ messageId: 'useCompareAndSet', fix: serverFix });
          const fix =
            renewal &&
            scriptCallFix(context.sourceCode, model, {
              kind: 'extend',
              command,
              keyText: renewal.keyText,
              argTexts: [renewal.tokenText, asRedisStringArgument(command.dialect, renewal.ttlText)],
            });
          if (fix)
            suggest.push({
              messageId: 'useCompareAndExpire',
              data: { command: expiry.kind === 'overwrite' ? 'SET … XX' : command.name },
              fix,
            });
          context.report({
            node: expiry.node,
            messageId,
            data: { command: command.name, ...relatedData(acquiredAt(locks, expiry)) },
            // A suggestion, not an autofix: the renewal starts sending a script instead of PEXPIRE.
            suggest,
          });
        }
        const sql = lockModel.sql;
        for (const renewal of sql.lockTableRenewals) {
          if (!isUnownedRenewal(sql, renewal)) continue;
          const acquisition = locks.lockReleasedBy(renewal)?.lockTable;
          const comparison = ownerComparisonFix(context.sourceCode, renewal, acquisition);
          context.report({
            node: renewal.node,
            messageId: 'unownedRowRenewal',
            data: relatedData(acquisition && { message: 'The lock row is taken here', node: acquisition.node, role: 'acquisition' }),
            // A suggestion, not an autofix: the heartbeat stops extending rows that another holder owns.
            suggest: comparison
              ? [{ messageId: 'compareOwner', data: { column: comparison.column, value: comparison.placeholder }, fix: comparison.fix }]
              : [],
          });
        }
      },
    };
  },
});

interface RenewalParts {
  readonly keyText: string;
  readonly tokenText: string;
  /** The TTL in milliseconds as source text. */
  readonly ttlText: string;
  /** The same TTL as the compare-and-set call sends it (node-redis's raw commands take strings). */
  readonly setTtlText: string;
}

/** The key, token and TTL a compare-first renewal needs, as text visible at the renewal. */
function renewalParts(
  context: LocksmithRuleContext<MessageId, Options>,
  model: RedisModel,
  expiry: Expiry,
  checkedBy: TSESTree.Node | undefined,
): RenewalParts | undefined {
  const sourceCode = context.sourceCode;
  const command = expiry.command!;
  const key = expiry.key;
  if (!key) return undefined;
  const acquisition = getLockModel(context).locks.lockReleasedBy(expiry)?.redis;
  const available = (expression: TSESTree.Node, at: TSESTree.Node) => isExpressionAvailableAt(sourceCode, expression, at);
  // A split lock's acquisition builds its token in another function: its text means nothing here.
  const acquiredToken = acquisition?.keySignature === expiry.keySignature ? acquisition?.value : undefined;
  // `SET key token XX PX ttl` writes the holder's own token: the value to compare is the one it writes.
  const written = expiry.kind === 'overwrite' ? command.value : undefined;
  const tokenText =
    tokenTextAt(sourceCode, [written, checkedBy, acquiredToken], expiry.node, available) ??
    (expiry.kind === 'overwrite' ? undefined : tokenByName(sourceCode, expiry.node));
  if (tokenText === undefined) return undefined;
  const ttlText =
    expiry.kind === 'script'
      ? scriptTtlInMilliseconds(sourceCode, expiry, tokenText)
      : expiry.kind === 'overwrite'
        ? setTtlInMilliseconds(sourceCode, command)
        : ttlInMilliseconds(sourceCode, command);
  if (ttlText === undefined) return undefined;
  const setTtlText = compareSetTtlArgument(command.dialect, ttlText);
  return { keyText: sourceCode.getText(key), tokenText, ttlText, setTtlText };
}
