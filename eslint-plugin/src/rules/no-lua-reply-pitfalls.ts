// no-lua-reply-pitfalls: Lua that misreads what Redis hands a script — an integer reply tested for
// truth, a reply compared with `nil`, a key made inside the script — and, on a cluster, a script
// call whose keys cannot share a slot.

import type { LuaPitfall } from '../lua/reply-pitfalls.js';
import { crossSlotScriptCalls, getLockModel, type LuaText, luaTextsOf, scriptTextPitfalls } from '../model/index.js';
import { createRule } from '../rule-support/create-rule.js';
import { luaLoc, luaModelOf } from '../rule-support/lua-report.js';

export type MessageId = 'integerTruthiness' | 'nilComparison' | 'builtKey' | 'crossSlot';

export default createRule<[], MessageId>({
  name: 'no-lua-reply-pitfalls',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow Lua scripts that misread Redis replies or keys',
      recommended: 'error',
    },
    schema: [],
    messages: {
      integerTruthiness:
        '`{{command}}` replies with an integer, and every number is true in Lua, `0` included: this test always passes{{where}}. Compare the reply (`== 1`).',
      nilComparison:
        'A Redis reply is never `nil` in a script: a missing value arrives as `false` (unless the script calls `redis.setresp(3)`), so this comparison with `nil` never matches{{where}}. Test the value (`if not v`) or compare with `false`.',
      builtKey:
        'This `{{command}}` key is made inside the script{{where}}: Redis routes a script by the keys passed in `KEYS`, so on a cluster this key may live on another node. Pass it in `KEYS`.',
      crossSlot:
        'These {{count}} keys share no hash tag, and the client talks to a cluster: the script fails with `CROSSSLOT`. Give the keys one hash tag (`{order:42}:lock`, `{order:42}:fence`).',
    },
  },
  // In a `.lua` file: the same pitfalls, at their place in the script.
  lua(context) {
    return {
      'Chunk:exit'() {
        for (const pitfall of luaModelOf(context)?.pitfalls ?? []) {
          context.report({ loc: luaLoc(context, pitfall.range), messageId: pitfall.kind, data: { command: pitfall.command, where: '' } });
        }
      },
    };
  },
  create(context) {
    return {
      'Program:exit'() {
        const sourceCode = context.sourceCode;
        const model = getLockModel(context);
        const scripts = luaTextsOf(sourceCode, context.filename);
        // The scripts this file sends to a cluster client (by their text), where a key built inside
        // the script may be on another node however it is built.
        const onCluster = new Set<string>();
        if (scripts.length > 0)
          for (const command of model.redis.commands) {
            const source = command.script?.script?.source;
            if (source !== undefined && command.client.cluster === true) onCluster.add(source);
          }
        for (const script of scripts) {
          const cluster = model.settings.redisCluster || onCluster.has(script.text);
          for (const pitfall of scriptTextPitfalls(script.text, cluster)) report(script, pitfall);
        }
        for (const command of crossSlotScriptCalls(sourceCode, model.redis.commands, model.settings)) {
          context.report({ node: command.call, messageId: 'crossSlot', data: { count: String(command.script?.keys.length ?? 0) } });
        }
      },
    };

    function report(script: LuaText, pitfall: LuaPitfall): void {
      const data = {
        command: pitfall.command,
        where: script.file === undefined ? '' : ` (${script.file}, line ${lineOf(script.text, pitfall.range[0])})`,
      };
      const map = script.sourceOffset;
      if (!map) {
        context.report({ node: script.node, messageId: pitfall.kind, data });
        return;
      }
      const start = context.sourceCode.getLocFromIndex(map(pitfall.range[0]));
      const end = context.sourceCode.getLocFromIndex(map(Math.max(pitfall.range[0], pitfall.range[1] - 1)) + 1);
      context.report({ loc: { start, end }, messageId: pitfall.kind, data });
    }
  },
});

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let index = 0; index < offset && index < text.length; index++) if (text.charCodeAt(index) === 10) line += 1;
  return line;
}
