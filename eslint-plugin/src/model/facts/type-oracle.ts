// The one place that asks the TypeScript checker which library declared a value's type. Returns
// null when the file was parsed without type information; callers then rely on call shape alone.

import type { ParserServicesWithTypeInformation } from '@typescript-eslint/utils';
import type * as ts from 'typescript';
import { DECLARATION_PATH_FAMILIES } from '../tables/redis-clients.js';
import type { ClientFamily, TypeVerdict, TypeOracle } from '../nouns/vocabulary.js';
import type { LocksmithRuleContext } from '../../util/rule-context.js';

export function getTypeOracle(context: LocksmithRuleContext): TypeOracle | null {
  const services = context.sourceCode.parserServices as Partial<ParserServicesWithTypeInformation> | undefined;
  if (!services?.program || !services.esTreeNodeToTSNodeMap) return null;
  const checker = services.program.getTypeChecker();
  const nodeMap = services.esTreeNodeToTSNodeMap;
  return {
    familyOf(expression) {
      try {
        const tsNode = nodeMap.get(expression);
        return verdictForType(checker, checker.getTypeAtLocation(tsNode));
      } catch {
        return 'unknown';
      }
    },
  };
}

// TypeFlags.Any | Unknown; literal values keep this module free of a runtime `typescript` import.
const ANY_OR_UNKNOWN_FLAGS = 1 | 2;

function verdictForType(checker: ts.TypeChecker, type: ts.Type): TypeVerdict {
  if ((type.flags & ANY_OR_UNKNOWN_FLAGS) !== 0) return 'unknown';
  const parts = type.isUnion() ? type.types : [type];
  let sawOther = false;
  for (const part of parts) {
    if ((part.flags & ANY_OR_UNKNOWN_FLAGS) !== 0) return 'unknown';
    const family = declaringFamily(checker, part);
    if (family) return family;
    // null/undefined members of a union (`Redis | undefined`) say nothing either way, and neither
    // does an interface written to stand for a client (`interface RedisLike { set; del; eval }`).
    const nullish = (part.flags & (32768 | 65536)) !== 0;
    if (!nullish && !isClientShapedInterface(part)) sawOther = true;
  }
  return sawOther ? 'other' : 'unknown';
}

// SymbolFlags: Class, Interface, TypeLiteral (literal values, as above).
const CLASS_SYMBOL = 32;
const INTERFACE_OR_TYPE_LITERAL = 64 | 2048;

/**
 * An interface or object type, not a class, whose members are a Redis client's: a script call
 * (`eval`, `evalsha`) beside `set` or `del`. A project's abstraction over its client (a parameter
 * typed `RedisLike`) is then left to the call's shape; a class with such methods (an in-process lock
 * table) has its own implementation and stays known as something else.
 */
function isClientShapedInterface(type: ts.Type): boolean {
  const symbol = type.aliasSymbol ?? type.getSymbol();
  if (!symbol || (symbol.flags & CLASS_SYMBOL) !== 0) return false;
  const target = type.getSymbol();
  if (!target || (target.flags & INTERFACE_OR_TYPE_LITERAL) === 0 || (target.flags & CLASS_SYMBOL) !== 0) return false;
  const names = new Set(type.getProperties().map((property) => property.getName()));
  return (names.has('eval') || names.has('evalsha') || names.has('evalSha')) && (names.has('set') || names.has('del'));
}

/**
 * The family whose declaration files declare `type`: through its alias (`RedisClientType`), its
 * symbol, or, for an intersection (node-redis's client type is one, and has no symbol of its own),
 * any of its members.
 */
function declaringFamily(checker: ts.TypeChecker, type: ts.Type): ClientFamily | undefined {
  const apparent = checker.getApparentType(type);
  const members = apparent.isIntersection() ? apparent.types : [];
  for (const symbol of [
    type.aliasSymbol,
    apparent.getSymbol(),
    apparent.aliasSymbol,
    ...members.map((member) => member.getSymbol() ?? member.aliasSymbol),
  ]) {
    for (const declaration of symbol?.declarations ?? []) {
      const fileName = declaration.getSourceFile().fileName;
      for (const [pattern, family] of DECLARATION_PATH_FAMILIES) {
        if (pattern.test(fileName)) return family;
      }
    }
  }
  return undefined;
}
