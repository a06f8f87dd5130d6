// Instances of the project's own classes: which class a receiver is an instance of (made with `new`,
// typed, injected through a constructor parameter), where that class is declared (this module or
// another), and its member functions. Lock helpers (helpers/) and client factories (`this.redisService.getClient()`)
// are both reached through them.

import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { type FunctionLike, isFunctionLike, plainProperty, propertyName, skipTypeWrappers, findVariableOf } from '../../util/ast.js';
import type { ImportTable } from '../nouns/vocabulary.js';
import { importedValue, type ModulePurpose, type ProjectModule } from './modules.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/**
 * The class a method call's receiver belongs to, by the identifier naming it in this module: the
 * class itself for a static call (`MutexLock.acquire(k)`), else the class an instance is made
 * from or typed as (`const mutex = new ReleaseMutex(t)`, `constructor(private locks: LockService)`
 * then `this.locks.acquire(k)`, `function f(locks: LockService)`). The caller decides whether that
 * name is a class of this module or an import.
 */
export function receiverClassOf(
  sourceCode: SourceCode,
  receiver: TSESTree.Node,
  call: TSESTree.Node,
): { readonly name: TSESTree.Identifier; readonly isStatic: boolean } | undefined {
  const expression = skipTypeWrappers(receiver);
  if (expression.type === AST_NODE_TYPES.Identifier) {
    const definition = findVariableOf(sourceCode, expression)?.defs[0];
    if (!definition) return undefined;
    if (definition.type === TSESLint.Scope.DefinitionType.ImportBinding || definition.type === TSESLint.Scope.DefinitionType.ClassName) {
      // Classes are named in PascalCase; a lower-case import is an instance or a function.
      return /^[A-Z]/u.test(expression.name) ? { name: expression, isStatic: true } : undefined;
    }
    if (definition.type === TSESLint.Scope.DefinitionType.Parameter) {
      const name = typeName(definition.name.typeAnnotation);
      return name ? { name, isStatic: false } : undefined;
    }
    if (definition.node.type === AST_NODE_TYPES.VariableDeclarator) {
      const name =
        (definition.node.init ? constructedClass(definition.node.init) : undefined) ?? typeName(definition.node.id.typeAnnotation);
      return name ? { name, isStatic: false } : undefined;
    }
    return undefined;
  }
  if (expression.type !== AST_NODE_TYPES.MemberExpression || skipTypeWrappers(expression.object).type !== AST_NODE_TYPES.ThisExpression)
    return undefined;
  const field = propertyName(expression);
  const classBody = enclosingClassBody(call);
  if (field === undefined || !classBody) return undefined;
  const value = fieldValue(classBody, field);
  const constructed = value ? constructedClass(value) : undefined;
  if (constructed) return { name: constructed, isStatic: false };
  const declared = fieldType(classBody, field);
  return declared ? { name: declared, isStatic: false } : undefined;
}

/** `new LockService(...)` (awaited or not): the identifier of the class made. */
export function constructedClass(node: TSESTree.Node): TSESTree.Identifier | undefined {
  let expression = skipTypeWrappers(node);
  if (expression.type === AST_NODE_TYPES.AwaitExpression) expression = skipTypeWrappers(expression.argument);
  if (expression.type !== AST_NODE_TYPES.NewExpression) return undefined;
  const callee = skipTypeWrappers(expression.callee);
  return callee.type === AST_NODE_TYPES.Identifier ? callee : undefined;
}

/** `: LockService` (not a generic, a union or a qualified name): the identifier of the type. */
export function typeName(annotation: TSESTree.TSTypeAnnotation | undefined): TSESTree.Identifier | undefined {
  const type = annotation?.typeAnnotation;
  if (type?.type !== AST_NODE_TYPES.TSTypeReference || type.typeArguments || type.typeName.type !== AST_NODE_TYPES.Identifier)
    return undefined;
  return type.typeName;
}

/** `field = …;` or `field: T;` declared in the class body under that plain name. */
function isFieldNamed(element: TSESTree.ClassElement, field: string): element is TSESTree.PropertyDefinition {
  return (
    element.type === AST_NODE_TYPES.PropertyDefinition &&
    !element.computed &&
    element.key.type === AST_NODE_TYPES.Identifier &&
    element.key.name === field
  );
}

/** The declared type of a field: `locks: LockService;` or a constructor parameter property `private readonly locks: LockService`. */
export function fieldType(classBody: TSESTree.ClassBody, field: string): TSESTree.Identifier | undefined {
  for (const element of classBody.body) {
    if (isFieldNamed(element, field)) return typeName(element.typeAnnotation);
    if (element.type !== AST_NODE_TYPES.MethodDefinition || element.kind !== 'constructor') continue;
    for (const parameter of element.value.params) {
      if (parameter.type !== AST_NODE_TYPES.TSParameterProperty) continue;
      const target = parameter.parameter.type === AST_NODE_TYPES.AssignmentPattern ? parameter.parameter.left : parameter.parameter;
      if (target.name === field) return typeName(target.typeAnnotation);
    }
  }
  return undefined;
}

/** The class declared in this module under the name, if the name is one. */
export function localClassNamed(
  sourceCode: SourceCode,
  name: TSESTree.Identifier,
): TSESTree.ClassDeclaration | TSESTree.ClassExpression | undefined {
  const definition = findVariableOf(sourceCode, name)?.defs[0];
  if (definition?.node.type === AST_NODE_TYPES.ClassDeclaration) return definition.node;
  if (definition?.node.type === AST_NODE_TYPES.VariableDeclarator && definition.node.init?.type === AST_NODE_TYPES.ClassExpression)
    return definition.node.init;
  return undefined;
}

export type Holder = TSESTree.ClassBody | TSESTree.ObjectExpression;

/** A field's value: its initialiser, or the one `this.field = ...` in the constructor. */
export function fieldValue(classBody: TSESTree.ClassBody, field: string): TSESTree.Node | undefined {
  for (const element of classBody.body) {
    if (isFieldNamed(element, field) && element.value) return element.value;
    if (element.type !== AST_NODE_TYPES.MethodDefinition || element.kind !== 'constructor' || !element.value.body) continue;
    for (const statement of element.value.body.body) {
      if (statement.type !== AST_NODE_TYPES.ExpressionStatement || statement.expression.type !== AST_NODE_TYPES.AssignmentExpression)
        continue;
      const { left, right } = statement.expression;
      if (
        left.type === AST_NODE_TYPES.MemberExpression &&
        left.object.type === AST_NODE_TYPES.ThisExpression &&
        propertyName(left) === field
      )
        return right;
    }
  }
  return undefined;
}

/** The member function `name` of a class body (static or not, when the call says which) or of an object literal. */
export function memberFunction(holder: Holder, name: string, isStatic?: boolean): FunctionLike | undefined {
  if (holder.type === AST_NODE_TYPES.ClassBody) {
    for (const element of holder.body) {
      if ((element.type !== AST_NODE_TYPES.MethodDefinition && element.type !== AST_NODE_TYPES.PropertyDefinition) || element.computed)
        continue;
      if (isStatic !== undefined && element.static !== isStatic) continue;
      if (element.key.type !== AST_NODE_TYPES.Identifier || element.key.name !== name) continue;
      const value = element.value ? skipTypeWrappers(element.value) : undefined;
      return value && isFunctionLike(value) ? value : undefined;
    }
    return undefined;
  }
  const property = plainProperty(holder, name);
  const value = property ? skipTypeWrappers(property.value) : undefined;
  return value && isFunctionLike(value) ? value : undefined;
}

export function enclosingClassBody(node: TSESTree.Node): TSESTree.ClassBody | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === AST_NODE_TYPES.ClassBody) return current;
    // A function other than an arrow or a method has its own `this`.
    if (current.type === AST_NODE_TYPES.FunctionDeclaration) return undefined;
    if (
      current.type === AST_NODE_TYPES.FunctionExpression &&
      current.parent.type !== AST_NODE_TYPES.MethodDefinition &&
      current.parent.type !== AST_NODE_TYPES.Property
    )
      return undefined;
  }
  return undefined;
}

/** A class of the project: its body, and the module that declares it (undefined: the file being linted). */
export interface ProjectClass {
  readonly body: TSESTree.ClassBody;
  readonly module: ProjectModule | undefined;
}

/**
 * The class `name` names in this module: one declared here, or one another module of the project
 * exports (`import { RedisService } from '../redis/redis.service'`), read when its text passes the
 * screen of `purpose`. Undefined for package classes and anything else.
 */
export function projectClassNamed(
  sourceCode: SourceCode,
  imports: ImportTable,
  filename: string | undefined,
  name: TSESTree.Identifier,
  purpose: ModulePurpose,
): ProjectClass | undefined {
  const local = localClassNamed(sourceCode, name);
  if (local) return { body: local.body, module: undefined };
  const binding = imports.get(name.name);
  if (!binding || filename === undefined || findVariableOf(sourceCode, name)?.defs[0]?.type !== TSESLint.Scope.DefinitionType.ImportBinding)
    return undefined;
  try {
    const value = importedValue(filename, binding, purpose);
    const node = value?.node;
    return value && (node?.type === AST_NODE_TYPES.ClassDeclaration || node?.type === AST_NODE_TYPES.ClassExpression)
      ? { body: node.body, module: value.module }
      : undefined;
  } catch {
    // Another module's code, whatever shape it has, never makes this file's rules throw.
    return undefined;
  }
}
