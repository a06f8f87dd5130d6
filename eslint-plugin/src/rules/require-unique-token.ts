// require-unique-token: a lock value that is not unique to this holder and this acquisition.

import type { TSESTree } from '@typescript-eslint/utils';
import { randomTokenFix } from '../fixes/random-token.js';
import {
  type Acquisition,
  callerArguments,
  eventsOfSameLock,
  getLockModel,
  isExportedLockHelper,
  isLockAcquisition,
  isParameterValue,
  keyedReleasesAndRenewals,
  sharedTokenKind,
  type SharedTokenKind,
  writtenKeyEvents,
  isRawCommand,
} from '../model/index.js';
import { createRule, type LocksmithRuleContext } from '../rule-support/create-rule.js';
import { MAX_RELATED, relatedData } from '../util/related.js';

export type MessageId = 'sharedValue' | 'hostValue' | 'timestampValue' | 'processToken' | 'useRandomToken';
export type Options = [];

const MESSAGE_BY_KIND: Readonly<Record<SharedTokenKind, MessageId>> = {
  literal: 'sharedValue',
  constant: 'sharedValue',
  host: 'hostValue',
  timestamp: 'timestampValue',
  process: 'processToken',
};

export default createRule<Options, MessageId>({
  name: 'require-unique-token',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require the value stored by a lock to be a token unique to each acquisition',
      recommended: 'error',
    },
    hasSuggestions: true,
    schema: [],
    messages: {
      sharedValue:
        'The lock value `{{value}}` is the same for every holder, so "this lock is mine" cannot be checked: a holder whose lock expired frees the next holder\'s lock.',
      hostValue:
        "`{{value}}` names the process, not the acquisition: two jobs in this process store the same lock value, so one can free the other's lock.",
      timestampValue:
        "A timestamp is not unique to a holder: two holders that mint it in the same millisecond and take the lock one after the other store the same value, so one can free the other's lock.",
      processToken:
        "This token is minted once per process and reused for every acquisition: two jobs in this process store the same lock value, so one can free the other's lock.",
      useRandomToken: 'Mint a token per acquisition with `crypto.randomUUID()` and release with it',
    },
  },
  create(context) {
    return {
      'Program:exit'() {
        const lockModel = getLockModel(context);
        const { redis: model, settings } = lockModel;
        // A helper whose caller chooses the token (`acquireLock(key, token)`): the caller's value is the finding.
        const helperValues = new Set<TSESTree.Node>();
        const reportedAtCalls = new Set<TSESTree.Node>();
        // A test's hook or helper that takes a lock with a fixed value stages a holder for the test:
        // the value is the scenario, and no production holder ever compares it.
        for (const acquisition of model.acquisitions) {
          if (acquisition.library !== 'helper' || !acquisition.value || lockModel.inTestCode(acquisition.node)) continue;
          helperValues.add(acquisition.value);
          if (reportHelperToken(context, acquisition, acquisition.value)) reportedAtCalls.add(acquisition.value);
        }
        for (const acquisition of model.acquisitions) {
          if (!acquisition.value || !isRawCommand(acquisition) || lockModel.inTestCode(acquisition.node)) continue;
          const passed = callerArguments(context.sourceCode, acquisition.value);
          // A parameter followed to calls of a lock helper already reported there: once is enough.
          if (passed?.some((argument) => reportedAtCalls.has(argument))) continue;
          const kind = sharedTokenKind(context.sourceCode, acquisition.value);
          if (kind === undefined || !isLockAcquisition(context.sourceCode, model, settings.lockKeyPattern, acquisition)) continue;
          // In a lock helper (its calls are acquisitions of their own) a release that takes its key as a
          // parameter (`releaseLock(key, token)`) frees whatever its callers name: it is judged where it
          // is called, so only releases and renewals of a key written out count here.
          const related = passed?.some((argument) => helperValues.has(argument))
            ? writtenKeyEvents(context.sourceCode, model, settings.lockKeyPattern)
            : eventsOfSameLock(context.sourceCode, model, settings.lockKeyPattern, acquisition);
          // An exported `acquireLock(key)` that stores a value its callers cannot choose: their
          // release, in other modules, cannot tell holders apart either. No suggestion: a token
          // minted here would not reach it (the helper's signature has to change).
          const helperForOthers = related.count === 0 && isExportedLockHelper(context.sourceCode, settings.lockKeyPattern, acquisition);
          if (related.count === 0 && !helperForOthers) continue;
          // A parameter's value is its callers' choice: a token minted here would leave them passing one in vain.
          const fix =
            !helperForOthers && related.allInside(acquisition.owner) && !isParameterValue(context.sourceCode, acquisition.value)
              ? randomTokenFix(context.sourceCode, model, acquisition)
              : undefined;
          context.report({
            node: acquisition.value,
            messageId: MESSAGE_BY_KIND[kind],
            data: {
              value: abbreviate(context.sourceCode.getText(acquisition.value)),
              ...relatedData(
                ...related
                  .first(MAX_RELATED)
                  .map((event) => ({ message: 'This release or renewal cannot tell holders apart by the value', node: event.node })),
              ),
            },
            // A suggestion, not an autofix: it changes the value stored in Redis.
            suggest: fix ? [{ messageId: 'useRandomToken', fix }] : [],
          });
        }
      },
    };
  },
});

/**
 * The token a caller hands to a lock helper, when the same lock is released or renewed in this
 * module (through the helper's release or the client): no suggestion, the helper's signature decides.
 */
function reportHelperToken(context: LocksmithRuleContext<MessageId, Options>, acquisition: Acquisition, value: TSESTree.Node): boolean {
  const kind = sharedTokenKind(context.sourceCode, value);
  const lock = kind === undefined ? undefined : getLockModel(context).locks.lockOfAcquisition(acquisition);
  const releases = lock ? keyedReleasesAndRenewals(lock) : [];
  if (kind === undefined || releases.length === 0) return false;
  context.report({
    node: value,
    messageId: MESSAGE_BY_KIND[kind],
    data: {
      value: abbreviate(context.sourceCode.getText(value)),
      ...relatedData(
        ...releases
          .slice(0, MAX_RELATED)
          .map((event) => ({ message: 'This release or renewal cannot tell holders apart by the value', node: event.node })),
      ),
    },
  });
  return true;
}

function abbreviate(text: string): string {
  const line = text.replace(/\s+/gu, ' ');
  return line.length > 40 ? `${line.slice(0, 37)}...` : line;
}
