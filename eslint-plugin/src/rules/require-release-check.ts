// require-release-check: a release or renewal that reports failure, whose result nothing reads.

import { droppedReleaseResults, getLockModel } from '../model/index.js';
import { createRule } from '../rule-support/create-rule.js';

export type MessageId = 'resultDropped' | 'resultNeverRead';
export type Options = [];

export default createRule<Options, MessageId>({
  name: 'require-release-check',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require the result of a lock release or renewal that can fail to be checked',
      recommended: false,
    },
    schema: [],
    messages: {
      resultDropped:
        'The result of the `{{release}}` is dropped: when it reports failure ({{failure}}), the lock was lost while the work ran or is held on another connection, and nothing notices.',
      resultNeverRead:
        '`{{name}}` holds the result of the `{{release}}` but is never read: when it reports failure ({{failure}}), the lock was lost while the work ran or is held on another connection, and nothing notices.',
    },
  },
  create(context) {
    return {
      'Program:exit'() {
        const model = getLockModel(context);
        for (const { release, fate } of droppedReleaseResults(context.sourceCode, model.redis, getLockModel(context).sql)) {
          // Tests release to clean up; whether the release worked is not what they check.
          if (model.inTestCode(release.node)) continue;
          if (fate.kind === 'ignored') {
            context.report({ node: release.node, messageId: 'resultDropped', data: { release: release.label, failure: release.failure } });
          } else {
            context.report({
              node: release.node,
              messageId: 'resultNeverRead',
              data: { release: release.label, failure: release.failure, name: fate.name },
            });
          }
        }
      },
    };
  },
});
