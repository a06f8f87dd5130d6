// no-lock-key-write: a plain write of a held lock's own key, which then no longer holds the token its
// release or renewal compares.

import { getLockModel, lockKeyWrites } from '../model/index.js';
import { createRule } from '../rule-support/create-rule.js';
import { relatedData } from '../util/related.js';

export type MessageId = 'lockKeyWrite';
export type Options = [];

export default createRule<Options, MessageId>({
  name: 'no-lock-key-write',
  meta: {
    type: 'problem',
    docs: {
      description: "Disallow writing a lock's own key while the lock is held",
      recommended: 'error',
    },
    schema: [],
    messages: {
      lockKeyWrite:
        "`{{command}}` writes the lock's own key while the lock is held: the key doubles as a data key, so the release or renewal that compares its token fails and leaves the key locked, or frees a lock that is not there.",
    },
  },
  create(context) {
    return {
      'Program:exit'() {
        const model = getLockModel(context);
        for (const write of lockKeyWrites(context.sourceCode, model.redis)) {
          // A test that overwrites the key simulates another holder or an expiry on purpose.
          if (model.inTestCode(write.call)) continue;
          context.report({
            node: write.call,
            messageId: 'lockKeyWrite',
            data: {
              command: write.command,
              ...relatedData({ message: 'The lock is acquired here', node: write.acquisition.node, role: 'acquisition' }),
            },
          });
        }
      },
    };
  },
});
