// Report locations and the model for rules running on a `.lua` file (the `locksmith/lua` language).

import { luaFileModel, type LuaFileModel } from '../model/lua-scripts/lua-file-model.js';
import { readSharedSettings } from '../model/facts/settings.js';
import type { LuaRuleContext } from './create-rule.js';

/** The file's lock model; undefined for a `.lua` file that is not a Redis script. */
export function luaModelOf<MessageIds extends string>(context: LuaRuleContext<MessageIds>): LuaFileModel | undefined {
  const chunk = context.sourceCode.ast;
  if (!chunk.lockScript) return undefined;
  const settings = readSharedSettings(context);
  return luaFileModel(chunk, context.filename, settings.lockKeyPattern);
}

/** A `loc` for offsets into the file, end exclusive. */
export function luaLoc<MessageIds extends string>(context: LuaRuleContext<MessageIds>, range: readonly [number, number]) {
  return { start: context.sourceCode.getLocFromIndex(range[0]), end: context.sourceCode.getLocFromIndex(range[1]) };
}
