// Where a lock's stored value comes from, and whether every holder (or every job in one process)
// ends up storing the same one: a literal, a constant, a hostname or pid, a timestamp, or a token
// minted once per process (at module scope, or in a singleton's constructor).

import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { findVariable, methodCallParts, propertyName, skipTypeWrappers } from '../../util/ast.js';
import { callerArguments } from '../facts/parameter-callers.js';
import { RANDOM_TOKEN_WORDS } from '../tables/lock-words.js';

/**
 * - `literal`: `'1'`, `'locked'`, `true`, `1`;
 * - `constant`: a module constant holding such a value, or a configuration value;
 * - `host`: the hostname or the pid alone;
 * - `timestamp`: any value computed from a clock read (`Date.now()`, `new Date()`, `performance.now()`,
 *   `process.hrtime()`) through arithmetic, rounding or conversion (`Math.floor(Date.now() / 1000)`,
 *   `(Date.now() + ttl).toString()`, `+new Date()`);
 * - `process`: a value fixed once per process, whatever it is built from: computed at module scope,
 *   set once in a singleton's constructor or field, `hostname:pid`.
 */
export type SharedTokenKind = 'literal' | 'constant' | 'host' | 'timestamp' | 'process';

type SourceCode = Readonly<TSESLint.SourceCode>;

const HOST_ENV = /host|pod|instance|node|machine|worker/iu;
const TIMESTAMP_METHODS = new Set(['getTime', 'toISOString', 'toJSON', 'valueOf', 'toUTCString', 'toString']);
/** Calls that only re-spell their argument (`String(pid)`, `pid.toString()`, `Math.floor(now / 1000)`). */
const CONVERSIONS = new Set([
  'String',
  'Number',
  'BigInt',
  'parseInt',
  'parseFloat',
  'toString',
  'valueOf',
  'toFixed',
  'toPrecision',
  'JSON.stringify',
  'Math.floor',
  'Math.ceil',
  'Math.round',
  'Math.trunc',
  'Math.abs',
]);
/** The conversions that are methods of the value they convert. */
const RESPELLING_METHODS = new Set(['toString', 'valueOf', 'toFixed', 'toPrecision']);
/** Operators whose result is a number (or bigint) computed from both sides. */
const ARITHMETIC = new Set(['-', '*', '/', '%', '**', '|', '&', '^', '<<', '>>', '>>>']);
/**
 * A name that holds a duration or offset: `Date.now() + ttl` is arithmetic, not string concatenation
 * (which types would tell; without them the name must).
 */
const DURATION_NAME = /ttl|timeout|ms$|millis|second|secs?$|duration|expir|lease|interval|delay|offset|period|window/iu;

/** The kind of shared value `value` always holds, or undefined when it may be unique (or is unknown). */
export function sharedTokenKind(sourceCode: SourceCode, value: TSESTree.Node): SharedTokenKind | undefined {
  return classify(sourceCode, value, 0, false);
}

function classify(sourceCode: SourceCode, node: TSESTree.Node, depth: number, moduleLevel: boolean): SharedTokenKind | undefined {
  if (depth > 8) return undefined;
  const expression = skipTypeWrappers(node);
  switch (expression.type) {
    case AST_NODE_TYPES.Literal:
      if (expression.value === null || expression.value instanceof RegExp) return undefined;
      return moduleLevel ? 'constant' : 'literal';
    case AST_NODE_TYPES.TemplateLiteral:
      if (expression.expressions.length === 0) return moduleLevel ? 'constant' : 'literal';
      return combine(expression.expressions.map((hole) => classify(sourceCode, hole, depth + 1, moduleLevel)));
    case AST_NODE_TYPES.BinaryExpression:
      return classifyBinary(sourceCode, expression, depth, moduleLevel);
    case AST_NODE_TYPES.LogicalExpression:
      // `process.env.HOSTNAME || 'local'`: whichever side it is, neither is minted per acquisition.
      return expression.operator === '&&'
        ? undefined
        : combine([
            classify(sourceCode, expression.left, depth + 1, moduleLevel),
            classify(sourceCode, expression.right, depth + 1, moduleLevel),
          ]);
    case AST_NODE_TYPES.UnaryExpression:
      // `+new Date()`, `-x`, `~~x`: a number re-spelt.
      return expression.operator === '+' || expression.operator === '-' || expression.operator === '~'
        ? classify(sourceCode, expression.argument, depth + 1, moduleLevel)
        : undefined;
    case AST_NODE_TYPES.ObjectExpression: {
      const values = expression.properties.map((property) =>
        property.type === AST_NODE_TYPES.Property ? classify(sourceCode, property.value, depth + 1, moduleLevel) : undefined,
      );
      return values.length === 0 ? undefined : combine(values);
    }
    case AST_NODE_TYPES.NewExpression: {
      if (!isNamed(expression.callee, 'Date')) return undefined;
      // `new Date()`, or `new Date(Date.now() + ttl)`: a point in time read from the clock.
      const [instant] = expression.arguments;
      if (expression.arguments.length === 0) return perProcess('timestamp', moduleLevel);
      return expression.arguments.length === 1 && instant && isTimestamp(classify(sourceCode, instant, depth + 1, moduleLevel))
        ? perProcess('timestamp', moduleLevel)
        : undefined;
    }
    case AST_NODE_TYPES.CallExpression:
      return classifyCall(sourceCode, expression, depth, moduleLevel);
    case AST_NODE_TYPES.MemberExpression:
      return classifyMember(sourceCode, expression, depth, moduleLevel);
    case AST_NODE_TYPES.Identifier:
      return classifyBinding(sourceCode, expression, depth);
    default:
      return undefined;
  }
}

function classifyCall(
  sourceCode: SourceCode,
  call: TSESTree.CallExpression,
  depth: number,
  moduleLevel: boolean,
): SharedTokenKind | undefined {
  const name = calleeName(call.callee);
  if (name === undefined) return undefined;
  if (CONVERSIONS.has(name)) {
    const parts = methodCallParts(call);
    const converted = parts && RESPELLING_METHODS.has(name) ? parts.receiver : call.arguments[0];
    return converted ? classify(sourceCode, converted, depth + 1, moduleLevel) : undefined;
  }
  if (name === 'hostname' || name === 'os.hostname') return perProcess('host', moduleLevel);
  if (name === 'Date.now' || name === 'performance.now' || name === 'process.hrtime' || isHrtimeBigint(call.callee))
    return perProcess('timestamp', moduleLevel);
  const parts = methodCallParts(call);
  // `new Date().getTime()`, `new Date(Date.now() + ttl).toISOString()`.
  if (parts && TIMESTAMP_METHODS.has(parts.method) && isTimestamp(classify(sourceCode, parts.receiver, depth + 1, moduleLevel)))
    return perProcess('timestamp', moduleLevel);
  return undefined;
}

/**
 * `a + b` joins strings or adds numbers; every other arithmetic operator computes a number. A number
 * computed from a clock read is a timestamp whatever the other side is (`Date.now() + ttl`,
 * `Math.floor(Date.now() / 1000)`), unless that side is random (`Date.now() * Math.random()`).
 */
function classifyBinary(
  sourceCode: SourceCode,
  expression: TSESTree.BinaryExpression,
  depth: number,
  moduleLevel: boolean,
): SharedTokenKind | undefined {
  if (expression.left.type === AST_NODE_TYPES.PrivateIdentifier) return undefined;
  const left = classify(sourceCode, expression.left, depth + 1, moduleLevel);
  const right = classify(sourceCode, expression.right, depth + 1, moduleLevel);
  const clockSide = isTimestamp(left) ? expression.right : isTimestamp(right) ? expression.left : undefined;
  if (expression.operator === '+') {
    const joined = combine([left, right]);
    if (joined !== undefined || !clockSide) return joined;
    return isNumeric(clockSide) && !mintsRandomly(clockSide) ? perProcess('timestamp', moduleLevel) : undefined;
  }
  if (!ARITHMETIC.has(expression.operator) || !clockSide || mintsRandomly(clockSide)) return undefined;
  return perProcess('timestamp', moduleLevel);
}

/** A timestamp, or a timestamp fixed at module scope (`process`). */
function isTimestamp(kind: SharedTokenKind | undefined): boolean {
  return kind === 'timestamp' || kind === 'process';
}

/** `process.hrtime.bigint`. */
function isHrtimeBigint(callee: TSESTree.Node): boolean {
  const expression = skipTypeWrappers(callee);
  if (expression.type !== AST_NODE_TYPES.MemberExpression || propertyName(expression) !== 'bigint') return false;
  const object = skipTypeWrappers(expression.object);
  return object.type === AST_NODE_TYPES.MemberExpression && propertyName(object) === 'hrtime' && isNamed(object.object, 'process');
}

/** The other side of `Date.now() + x` is a number: a numeric literal, arithmetic, or a duration's name. */
function isNumeric(node: TSESTree.Node): boolean {
  const expression = skipTypeWrappers(node);
  switch (expression.type) {
    case AST_NODE_TYPES.Literal:
      return typeof expression.value === 'number' || typeof expression.value === 'bigint';
    case AST_NODE_TYPES.BinaryExpression:
      return (
        ARITHMETIC.has(expression.operator) || (expression.operator === '+' && isNumeric(expression.left) && isNumeric(expression.right))
      );
    case AST_NODE_TYPES.UnaryExpression:
      return expression.operator === '-' || expression.operator === '+';
    case AST_NODE_TYPES.Identifier:
      return DURATION_NAME.test(expression.name);
    case AST_NODE_TYPES.MemberExpression: {
      const name = propertyName(expression);
      return name !== undefined && DURATION_NAME.test(name);
    }
    case AST_NODE_TYPES.CallExpression: {
      const name = calleeName(expression.callee);
      return name !== undefined && (name.startsWith('Math.') || name === 'Number' || name === 'parseInt' || name === 'parseFloat');
    }
    default:
      return false;
  }
}

function classifyMember(
  sourceCode: SourceCode,
  member: TSESTree.MemberExpression,
  depth: number,
  moduleLevel: boolean,
): SharedTokenKind | undefined {
  const name = propertyName(member);
  if (name === undefined) return undefined;
  const object = skipTypeWrappers(member.object);
  if (object.type === AST_NODE_TYPES.Identifier && object.name === 'process' && name === 'pid' && !findVariable(sourceCode, object))
    return perProcess('host', moduleLevel);
  // `process.env.HOSTNAME` names the machine; any other environment value is configuration.
  if (
    object.type === AST_NODE_TYPES.MemberExpression &&
    propertyName(object) === 'env' &&
    skipTypeWrappers(object.object).type === AST_NODE_TYPES.Identifier &&
    (skipTypeWrappers(object.object) as TSESTree.Identifier).name === 'process'
  ) {
    return HOST_ENV.test(name) ? perProcess('host', moduleLevel) : 'constant';
  }
  if (object.type === AST_NODE_TYPES.ThisExpression) return classifyThisField(sourceCode, member, name, depth);
  if (object.type === AST_NODE_TYPES.Identifier) return classifyStateProperty(sourceCode, object, name, depth);
  return undefined;
}

/**
 * `state.lockValue` of a module-level `const state = { lockValue: … }`: the property holds its
 * initial value for the life of the process when the object is only ever read or written member by
 * member (never handed out whole) and no code assigns that property.
 */
function classifyStateProperty(
  sourceCode: SourceCode,
  object: TSESTree.Identifier,
  name: string,
  depth: number,
): SharedTokenKind | undefined {
  const variable = findVariable(sourceCode, object);
  const definition = variable?.defs[0];
  if (
    !variable ||
    variable.defs.length !== 1 ||
    definition?.node.type !== AST_NODE_TYPES.VariableDeclarator ||
    variable.scope.block.type !== AST_NODE_TYPES.Program
  )
    return undefined;
  const declarator = definition.node;
  if (declarator.parent.kind !== 'const' || !declarator.init) return undefined;
  const init = skipTypeWrappers(declarator.init);
  if (init.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  const property = init.properties.find(
    (candidate): candidate is TSESTree.Property =>
      candidate.type === AST_NODE_TYPES.Property && !candidate.computed && propertyKeyName(candidate.key) === name,
  );
  if (!property || property.kind !== 'init' || property.method) return undefined;
  for (const reference of variable.references) {
    if (reference.init === true) continue;
    const use = reference.identifier.parent;
    if (use.type !== AST_NODE_TYPES.MemberExpression || use.object !== reference.identifier) return undefined;
    const written = use.parent;
    const writes =
      (written.type === AST_NODE_TYPES.AssignmentExpression && written.left === use) || written.type === AST_NODE_TYPES.UpdateExpression;
    // `state[key] = …` may write any property.
    if (writes && (propertyName(use) === name || propertyName(use) === undefined)) return undefined;
  }
  const kind = classify(sourceCode, property.value, depth + 1, true);
  if (kind !== undefined) return kind;
  return isComputedValue(property.value) ? 'process' : undefined;
}

/**
 * A binding: a module-level one holds one value per process; a local one is followed to its value;
 * a parameter of a function only this file calls, to what every caller passes.
 */
function classifyBinding(sourceCode: SourceCode, identifier: TSESTree.Identifier, depth: number): SharedTokenKind | undefined {
  const variable = findVariable(sourceCode, identifier);
  const definition = variable?.defs[0];
  if (definition?.type === TSESLint.Scope.DefinitionType.Parameter) return classifyParameter(sourceCode, identifier, depth);
  if (!variable || variable.defs.length !== 1 || definition?.node.type !== AST_NODE_TYPES.VariableDeclarator) return undefined;
  const declarator = definition.node;
  if (declarator.id.type !== AST_NODE_TYPES.Identifier || !declarator.init) return undefined;
  if (!variable.references.every((reference) => !reference.isWrite() || reference.init === true)) return undefined;
  const atModuleLevel = variable.scope.block.type === AST_NODE_TYPES.Program;
  if (atModuleLevel) {
    const kind = classify(sourceCode, declarator.init, depth + 1, true);
    if (kind !== undefined) return kind;
    // Computed once when the module loads, whatever from (`randomUUID()`, `makeWorkerId()`): one
    // value for the whole process.
    return isComputedValue(declarator.init) ? 'process' : undefined;
  }
  return classify(sourceCode, declarator.init, depth + 1, false);
}

/**
 * A parameter is shared when every caller passes a shared value (`this.applyLock(key, stamp)` with
 * `stamp` a timestamp at each call): one caller minting a unique token, too many callers, or a
 * function that escapes the file leave it unknown. Callers are followed within the same depth bound,
 * so a chain of private helpers ends too.
 */
function classifyParameter(sourceCode: SourceCode, parameter: TSESTree.Identifier, depth: number): SharedTokenKind | undefined {
  const variable = findVariable(sourceCode, parameter);
  if (!variable) return undefined;
  // Each parameter is followed once per file: callers that pass parameters of other helpers (or of
  // the same one, recursively) would otherwise multiply the work by the callers at every level.
  if (parameterKinds.has(variable)) return parameterKinds.get(variable) ?? undefined;
  parameterKinds.set(variable, null);
  const passed = callerArguments(sourceCode, parameter);
  const kind = passed ? combine(passed.map((argument) => classify(sourceCode, argument, depth + 1, false))) : undefined;
  parameterKinds.set(variable, kind ?? null);
  return kind;
}

/** What each followed parameter holds; `null` while it is being followed (a cycle) or when unknown. */
const parameterKinds = new WeakMap<TSESLint.Scope.Variable, SharedTokenKind | null>();

/** The value is a parameter of its function: what it holds is chosen by the callers. */
export function isParameterValue(sourceCode: SourceCode, value: TSESTree.Node): boolean {
  const expression = skipTypeWrappers(value);
  return (
    expression.type === AST_NODE_TYPES.Identifier &&
    findVariable(sourceCode, expression)?.defs[0]?.type === TSESLint.Scope.DefinitionType.Parameter
  );
}

/**
 * `this.token`: shared when every assignment is in the constructor or a field initialiser and
 * holds a shared value, or a random one in a class the module instantiates once (a singleton).
 */
function classifyThisField(
  sourceCode: SourceCode,
  member: TSESTree.MemberExpression,
  name: string,
  depth: number,
): SharedTokenKind | undefined {
  const classNode = enclosingClass(member);
  if (!classNode) return undefined;
  const values: TSESTree.Node[] = [];
  for (const element of classNode.body.body) {
    if (element.type === AST_NODE_TYPES.PropertyDefinition && !element.static && propertyKeyName(element.key) === name) {
      if (element.value) values.push(element.value);
    }
    if (element.type === AST_NODE_TYPES.MethodDefinition && element.kind === 'constructor') {
      for (const parameter of element.value.params) {
        // `constructor(private readonly token: string)`: the caller decides.
        if (
          parameter.type === AST_NODE_TYPES.TSParameterProperty &&
          parameter.parameter.type === AST_NODE_TYPES.Identifier &&
          parameter.parameter.name === name
        )
          return undefined;
      }
    }
  }
  const assignedElsewhere: TSESTree.Node[] = [];
  visitAssignments(classNode.body, name, (assignment, method) => {
    if (method?.kind === 'constructor') values.push(assignment.right);
    else assignedElsewhere.push(assignment);
  });
  if (assignedElsewhere.length > 0 || values.length === 0) return undefined;
  const kinds = values.map((value) => classify(sourceCode, value, depth + 1, false));
  // Set once per instance: in the one instance a singleton is, once per process.
  const fixedPerProcess = () =>
    values.every((value) => isComputedValue(value) && !readsParameter(sourceCode, value)) && isSingleton(sourceCode, classNode);
  if (kinds.every((kind) => kind !== undefined)) {
    const kind = combine(kinds);
    return kind === 'timestamp' && fixedPerProcess() ? 'process' : kind;
  }
  return fixedPerProcess() ? 'process' : undefined;
}

function visitAssignments(
  classBody: TSESTree.ClassBody,
  name: string,
  onAssignment: (assignment: TSESTree.AssignmentExpression, method: TSESTree.MethodDefinition | undefined) => void,
): void {
  const visit = (node: TSESTree.Node, method: TSESTree.MethodDefinition | undefined): void => {
    if (
      node.type === AST_NODE_TYPES.AssignmentExpression &&
      node.left.type === AST_NODE_TYPES.MemberExpression &&
      node.left.object.type === AST_NODE_TYPES.ThisExpression &&
      propertyName(node.left) === name
    ) {
      onAssignment(node, method);
    }
    // A nested class has its own `this`.
    if (node.type === AST_NODE_TYPES.ClassBody && node !== classBody) return;
    for (const value of Object.values(node)) {
      if (value === node.parent) continue;
      if (Array.isArray(value)) {
        for (const item of value) if (isNode(item)) visit(item, method);
      } else if (isNode(value)) {
        visit(value, node.type === AST_NODE_TYPES.MethodDefinition ? node : method);
      }
    }
  };
  for (const element of classBody.body) visit(element, element.type === AST_NODE_TYPES.MethodDefinition ? element : undefined);
}

function isNode(value: unknown): value is TSESTree.Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** The module makes one instance: `export const locks = new LockManager()`, `static instance = new X()`, `getInstance()`. */
function isSingleton(sourceCode: SourceCode, classNode: TSESTree.ClassDeclaration | TSESTree.ClassExpression): boolean {
  const className = classNode.id?.name;
  if (className === undefined) return false;
  for (const element of classNode.body.body) {
    const key = 'key' in element ? propertyKeyName(element.key) : undefined;
    if (element.type === AST_NODE_TYPES.PropertyDefinition && element.static && /^instance$/iu.test(key ?? '')) return true;
    if (element.type === AST_NODE_TYPES.MethodDefinition && element.static && key === 'getInstance') return true;
  }
  return instantiatedAtModuleLevel(sourceCode.ast).has(className);
}

const moduleLevelInstances = new WeakMap<TSESTree.Program, ReadonlySet<string>>();

/**
 * Names of the classes the module body instantiates (`export default new X()`, `const x = new X()`,
 * `module.exports = new X()`), gathered once per file rather than once per class asked about.
 */
function instantiatedAtModuleLevel(program: TSESTree.Program): ReadonlySet<string> {
  const cached = moduleLevelInstances.get(program);
  if (cached) return cached;
  const names = new Set<string>();
  const note = (node: TSESTree.Node | null | undefined) => {
    const name = node ? newOfName(node) : undefined;
    if (name !== undefined) names.add(name);
  };
  for (const statement of program.body) {
    const declaration = statement.type === AST_NODE_TYPES.ExportNamedDeclaration ? statement.declaration : statement;
    if (statement.type === AST_NODE_TYPES.ExportDefaultDeclaration) note(statement.declaration);
    if (declaration?.type === AST_NODE_TYPES.VariableDeclaration) for (const declarator of declaration.declarations) note(declarator.init);
    if (declaration?.type === AST_NODE_TYPES.ExpressionStatement && declaration.expression.type === AST_NODE_TYPES.AssignmentExpression)
      note(declaration.expression.right);
  }
  moduleLevelInstances.set(program, names);
  return names;
}

/** `X` of `new X(...)`. */
function newOfName(node: TSESTree.Node): string | undefined {
  const expression = skipTypeWrappers(node);
  if (expression.type !== AST_NODE_TYPES.NewExpression) return undefined;
  const callee = skipTypeWrappers(expression.callee);
  return callee.type === AST_NODE_TYPES.Identifier ? callee.name : undefined;
}

/**
 * A value computed when the code runs (a call, a template, arithmetic, a read), not a function,
 * class or container whose identity is the point.
 */
function isComputedValue(node: TSESTree.Node): boolean {
  const expression = skipTypeWrappers(node);
  switch (expression.type) {
    case AST_NODE_TYPES.CallExpression:
    case AST_NODE_TYPES.TemplateLiteral:
    case AST_NODE_TYPES.BinaryExpression:
    case AST_NODE_TYPES.UnaryExpression:
    case AST_NODE_TYPES.MemberExpression:
      return true;
    case AST_NODE_TYPES.AwaitExpression:
      return isComputedValue(expression.argument);
    default:
      return false;
  }
}

/** Whether the value reads a parameter of the function it is in (a constructor's `id`): the caller decides it. */
function readsParameter(sourceCode: SourceCode, node: TSESTree.Node): boolean {
  let found = false;
  const visit = (current: TSESTree.Node): void => {
    if (found) return;
    if (current.type === AST_NODE_TYPES.Identifier) {
      const definition = findVariable(sourceCode, current)?.defs[0];
      if (definition?.type === TSESLint.Scope.DefinitionType.Parameter) found = true;
      return;
    }
    for (const key of sourceCode.visitorKeys[current.type] ?? []) {
      const child = (current as unknown as Record<string, unknown>)[key];
      for (const item of Array.isArray(child) ? (child as unknown[]) : [child]) if (isNode(item)) visit(item);
    }
  };
  visit(node);
  return found;
}

/** `randomUUID()`, `uuidv4()`, `nanoid()`, `crypto.randomBytes(16).toString('hex')`, `Math.random()`. */
export function mintsRandomly(node: TSESTree.Node): boolean {
  const expression = skipTypeWrappers(node);
  if (expression.type === AST_NODE_TYPES.TemplateLiteral) return expression.expressions.some(mintsRandomly);
  if (expression.type === AST_NODE_TYPES.BinaryExpression) return mintsRandomly(expression.left) || mintsRandomly(expression.right);
  if (expression.type !== AST_NODE_TYPES.CallExpression) return false;
  const name = calleeName(expression.callee);
  if (name !== undefined && RANDOM_TOKEN_WORDS.test(name)) return true;
  const parts = methodCallParts(expression);
  return parts !== undefined && mintsRandomly(parts.receiver);
}

function combine(kinds: readonly (SharedTokenKind | undefined)[]): SharedTokenKind | undefined {
  if (kinds.some((kind) => kind === undefined)) return undefined;
  if (kinds.includes('timestamp')) return 'timestamp';
  if (kinds.includes('process') || kinds.filter((kind) => kind === 'host').length > 1) return 'process';
  if (kinds.includes('host')) return 'host';
  if (kinds.includes('constant')) return 'constant';
  return 'literal';
}

/** A value computed once at module scope is minted once per process. */
function perProcess(kind: 'host' | 'timestamp', moduleLevel: boolean): SharedTokenKind {
  return moduleLevel && kind === 'timestamp' ? 'process' : kind;
}

function calleeName(callee: TSESTree.Node): string | undefined {
  const expression = skipTypeWrappers(callee);
  if (expression.type === AST_NODE_TYPES.Identifier) return expression.name;
  if (expression.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const name = propertyName(expression);
  const object = skipTypeWrappers(expression.object);
  if (name === undefined) return undefined;
  if (
    object.type === AST_NODE_TYPES.Identifier &&
    (object.name === 'Date' ||
      object.name === 'JSON' ||
      object.name === 'performance' ||
      object.name === 'os' ||
      object.name === 'Math' ||
      object.name === 'process')
  )
    return `${object.name}.${name}`;
  return name;
}

function isNamed(node: TSESTree.Node, name: string): boolean {
  const expression = skipTypeWrappers(node);
  return expression.type === AST_NODE_TYPES.Identifier && expression.name === name;
}

function propertyKeyName(key: TSESTree.Node): string | undefined {
  if (key.type === AST_NODE_TYPES.Identifier) return key.name;
  if (key.type === AST_NODE_TYPES.Literal && typeof key.value === 'string') return key.value;
  return undefined;
}

function enclosingClass(node: TSESTree.Node): TSESTree.ClassDeclaration | TSESTree.ClassExpression | undefined {
  let current = node.parent;
  while (current) {
    if (current.type === AST_NODE_TYPES.ClassDeclaration || current.type === AST_NODE_TYPES.ClassExpression) return current;
    // An arrow function keeps the class's `this`; any other function has its own.
    if (current.type === AST_NODE_TYPES.FunctionDeclaration) return undefined;
    if (current.type === AST_NODE_TYPES.FunctionExpression && current.parent.type !== AST_NODE_TYPES.MethodDefinition) return undefined;
    current = current.parent;
  }
  return undefined;
}
