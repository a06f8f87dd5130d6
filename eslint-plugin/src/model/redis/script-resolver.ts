// Finds the Lua text behind a script argument: inline strings, module constants, `.lua` files read
// at start-up, `defineCommand`/`defineScript` registrations and `SCRIPT LOAD` SHAs.

import * as path from 'node:path';
import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

const DefinitionType = TSESLint.Scope.DefinitionType;
import { analyzeLuaScript } from '../../lua/analyze-script.js';
import { moduleHost } from '../project/host.js';
import { importedValue } from '../project/modules.js';
import { collectImports } from '../facts/imports.js';
import { constInitializer, findVariable, methodCallParts, propertyName, skipTypeWrappers, staticString } from '../../util/ast.js';
import { enclosingClassBody, fieldValue } from '../project/classes.js';
import type { ResolvedScript } from '../nouns/redis-events.js';

// By path and version, so an edited script is read again (the editor's host versions open documents).
const fileCache = new Map<string, { readonly version: string; readonly text: string | undefined }>();

function readScriptFile(file: string): string | undefined {
  const host = moduleHost();
  const version = host.stat(file);
  if (!version) return undefined;
  const cached = fileCache.get(file);
  if (cached?.version === version.version) return cached.text;
  const text = version.size < 256 * 1024 ? host.readFile(file) : undefined;
  fileCache.set(file, { version: version.version, text });
  return text;
}

export class ScriptResolver {
  private readonly directory: string;

  constructor(
    private readonly sourceCode: Readonly<TSESLint.SourceCode>,
    private readonly filename: string | undefined,
  ) {
    this.directory = path.dirname(path.resolve(filename ?? '.'));
  }

  /** The script an `eval` argument holds, when the source makes it knowable. */
  resolve(node: TSESTree.Node, depth = 0): ResolvedScript | undefined {
    const source = this.luaText(node, depth);
    if (source === undefined) return undefined;
    return { source, summary: analyzeLuaScript(source) };
  }

  private luaText(node: TSESTree.Node, depth: number): string | undefined {
    if (depth > 6) return undefined;
    const literal = staticString(this.sourceCode, node);
    if (literal !== undefined) return literal;
    const expression = skipTypeWrappers(node);
    if (expression.type === AST_NODE_TYPES.Identifier) {
      const init = constInitializer(this.sourceCode, expression);
      return init ? this.luaText(init, depth + 1) : this.importedText(expression, depth);
    }
    // `this.releaseScript`, a class field holding the script (`private readonly releaseScript = \`…\``).
    if (expression.type === AST_NODE_TYPES.MemberExpression && expression.object.type === AST_NODE_TYPES.ThisExpression) {
      const name = propertyName(expression);
      const classBody = enclosingClassBody(expression);
      const value = name !== undefined && classBody ? fieldValue(classBody, name) : undefined;
      return value ? this.luaText(value, depth + 1) : undefined;
    }
    if (expression.type === AST_NODE_TYPES.CallExpression) {
      const parts = methodCallParts(expression);
      // fs.readFileSync(path, 'utf8') and readFileSync(path).toString()
      if (parts?.method === 'toString' && parts.receiver.type === AST_NODE_TYPES.CallExpression)
        return this.luaText(parts.receiver, depth + 1);
      const calleeName = parts?.method ?? (expression.callee.type === AST_NODE_TYPES.Identifier ? expression.callee.name : undefined);
      if (calleeName === 'readFileSync' && expression.arguments[0]) {
        const file = this.resolvePath(expression.arguments[0]);
        return file === undefined ? undefined : readScriptFile(file);
      }
    }
    return undefined;
  }

  /** `import { RELEASE_SCRIPT } from './scripts'`: the constant as the module that exports it holds it. */
  private importedText(name: TSESTree.Identifier, depth: number): string | undefined {
    const binding = collectImports(this.sourceCode.ast).get(name.name);
    if (!binding || this.filename === undefined || findVariable(this.sourceCode, name)?.defs[0]?.type !== DefinitionType.ImportBinding)
      return undefined;
    try {
      const value = importedValue(this.filename, binding, 'script');
      const declarator = value?.node.parent;
      if (!value || declarator?.type !== AST_NODE_TYPES.VariableDeclarator || declarator.id !== value.node || !declarator.init)
        return undefined;
      let resolver = value.module.memo.get('scripts') as ScriptResolver | undefined;
      if (!resolver) {
        resolver = new ScriptResolver(value.module.sourceCode, value.module.filePath);
        value.module.memo.set('scripts', resolver);
      }
      return resolver.luaText(declarator.init, depth + 1);
    } catch {
      // Another module's code, whatever shape it has, never makes this file's rules throw.
      return undefined;
    }
  }

  /** `path.join(__dirname, 'x.lua')`, `path.resolve(__dirname, ...)`, `new URL('./x.lua', import.meta.url)`. */
  private resolvePath(node: TSESTree.Node): string | undefined {
    const expression = skipTypeWrappers(node);
    const literal = staticString(this.sourceCode, expression);
    if (literal !== undefined) return path.resolve(this.directory, literal);
    if (
      expression.type === AST_NODE_TYPES.NewExpression &&
      expression.callee.type === AST_NODE_TYPES.Identifier &&
      expression.callee.name === 'URL'
    ) {
      const relative = expression.arguments[0] ? staticString(this.sourceCode, expression.arguments[0]) : undefined;
      return relative === undefined ? undefined : path.resolve(this.directory, relative);
    }
    if (expression.type === AST_NODE_TYPES.Identifier) {
      const init = constInitializer(this.sourceCode, expression);
      return init ? this.resolvePath(init) : undefined;
    }
    if (expression.type === AST_NODE_TYPES.BinaryExpression && expression.operator === '+' && isDirnameReference(expression.left)) {
      // __dirname + '/release.lua'
      const rest = staticString(this.sourceCode, expression.right);
      return rest === undefined ? undefined : path.join(this.directory, rest);
    }
    if (expression.type !== AST_NODE_TYPES.CallExpression) return undefined;
    const parts = methodCallParts(expression);
    if (parts?.method !== 'join' && parts?.method !== 'resolve') return undefined;
    const segments: string[] = [];
    for (const argument of expression.arguments) {
      if (isDirnameReference(argument)) segments.push(this.directory);
      else {
        const segment = staticString(this.sourceCode, argument);
        if (segment === undefined) return undefined;
        segments.push(segment);
      }
    }
    return path.resolve(this.directory, ...segments);
  }

  /** `const sha = await redis.script('LOAD', SCRIPT)` or `client.scriptLoad(SCRIPT)`: the script behind a SHA. */
  resolveSha(node: TSESTree.Node): ResolvedScript | undefined {
    const expression = skipTypeWrappers(node);
    if (expression.type !== AST_NODE_TYPES.Identifier && expression.type !== AST_NODE_TYPES.MemberExpression) return undefined;
    for (const value of this.assignedValues(expression)) {
      let call = skipTypeWrappers(value);
      if (call.type === AST_NODE_TYPES.AwaitExpression) call = skipTypeWrappers(call.argument);
      if (call.type !== AST_NODE_TYPES.CallExpression) continue;
      const parts = methodCallParts(call);
      if (parts?.method === 'scriptLoad' && call.arguments[0]) return this.resolve(call.arguments[0]);
      if (
        parts?.method === 'script' &&
        call.arguments[0] &&
        staticString(this.sourceCode, call.arguments[0])?.toUpperCase() === 'LOAD' &&
        call.arguments[1]
      ) {
        return this.resolve(call.arguments[1]);
      }
    }
    return undefined;
  }

  private assignedValues(target: TSESTree.Identifier | TSESTree.MemberExpression): TSESTree.Node[] {
    if (target.type === AST_NODE_TYPES.Identifier) {
      const variable = findVariable(this.sourceCode, target);
      if (!variable) return [];
      const values: TSESTree.Node[] = [];
      for (const reference of variable.references) {
        if (reference.writeExpr) values.push(reference.writeExpr);
      }
      return values;
    }
    return [];
  }
}

/** `__dirname` or `import.meta.dirname`: the linted file's own folder. */
function isDirnameReference(node: TSESTree.Node): boolean {
  if (node.type === AST_NODE_TYPES.Identifier) return node.name === '__dirname';
  return (
    node.type === AST_NODE_TYPES.MemberExpression &&
    node.object.type === AST_NODE_TYPES.MetaProperty &&
    node.property.type === AST_NODE_TYPES.Identifier &&
    node.property.name === 'dirname'
  );
}
