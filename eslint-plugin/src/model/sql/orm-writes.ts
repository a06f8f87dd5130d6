// Writes made through query builders and ORMs (`prisma.invoice.update`, `knex('t').update`).

import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { propertyName, propertyValue, skipTypeWrappers } from '../../util/ast.js';
import { ANY_ORM_WRITE_METHOD, ORM_WRITERS, ormWritesOf, type OrmWriter } from '../tables/sql-clients.js';
import type { SenderResolver } from './senders.js';
import type { SqlSender, OrmWriteFacts } from '../nouns/sql-items.js';

/** Recognises `call` as an ORM write, or returns undefined. */
export function findOrmWrite(call: TSESTree.CallExpression, senders: SenderResolver): OrmWriteFacts | undefined {
  const callee = skipTypeWrappers(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = propertyName(callee);
  if (method === undefined || !ANY_ORM_WRITE_METHOD.has(method)) return undefined;
  const object = skipTypeWrappers(callee.object);
  // prisma.invoice.update({ ... }) / tx.invoice.update(...)
  const modelWriters = writersOf('model', method);
  if (modelWriters.length > 0 && object.type === AST_NODE_TYPES.MemberExpression) {
    const sender = senders.sender(object.object);
    const writer = modelWriters.find((candidate) => writesThrough(candidate, sender));
    return writer ? { node: call, library: writer.library, method, sender, table: propertyName(object), chain: [call] } : undefined;
  }
  // Chains: knex('t').where(...).update(...), db.update(t).set(...), db.updateTable('t')
  const chain: TSESTree.Node[] = [call];
  let root: TSESTree.Node = object;
  let innermost: TSESTree.CallExpression | undefined;
  for (let depth = 0; depth < 12; depth++) {
    const current = skipTypeWrappers(root);
    if (current.type === AST_NODE_TYPES.CallExpression) {
      chain.push(current);
      innermost = current;
      const innerCallee = skipTypeWrappers(current.callee);
      if (innerCallee.type === AST_NODE_TYPES.MemberExpression) {
        root = innerCallee.object;
        continue;
      }
      // knex('t') / trx('t')
      return tableCallWrite(call, method, senders.sender(innerCallee), current, chain);
    }
    break;
  }
  if (innermost) {
    // this.knex('t') / this.db('t'): the chain starts at a member that is itself the knex instance.
    // Asked once per chain, at its innermost call (`Model.query()` of objection asks and is no knex).
    const innerCallee = skipTypeWrappers(innermost.callee);
    return innerCallee.type === AST_NODE_TYPES.MemberExpression &&
      innermost.arguments.length === 1 &&
      writersOf('table-call', method).length > 0
      ? tableCallWrite(call, method, senders.sender(innerCallee), innermost, chain)
      : undefined;
  }
  // The write method sits right on the client: db.update(table) (drizzle), db.updateTable('t') (kysely).
  const sender = senders.sender(object);
  const library = sender.library;
  const writes = ormWritesOf(library);
  if (writes?.spelling === 'client' && writes.methods.has(method)) {
    let outer: TSESTree.Node = call;
    while (outer.parent.type === AST_NODE_TYPES.MemberExpression || outer.parent.type === AST_NODE_TYPES.CallExpression) {
      outer = outer.parent;
      if (outer.type === AST_NODE_TYPES.CallExpression) chain.push(outer);
    }
    const table = call.arguments[0];
    const tableName =
      table?.type === AST_NODE_TYPES.Literal ? String(table.value) : table?.type === AST_NODE_TYPES.Identifier ? table.name : undefined;
    return { node: call, library, method, sender, table: tableName, chain };
  }
  return undefined;
}

/** The libraries whose ORM writes are spelled so and can end in `method`. */
function writersOf(spelling: OrmWriter['spelling'], method: string): readonly OrmWriter[] {
  return ORM_WRITERS.filter((writer) => writer.spelling === spelling && writer.methods.has(method));
}

/** The sender is the writer's client, or a transaction's handle the writer claims (OrmWriteSpelling). */
function writesThrough(writer: OrmWriter, sender: SqlSender): boolean {
  if (sender.library === writer.library) return true;
  if (!sender.inTransaction) return false;
  return (
    (writer.claimsUnknownTransactionHandles === true && sender.library === 'unknown') ||
    (writer.transactionHandleName?.test(sender.text) ?? false)
  );
}

/** `knex('t')...update()` when `sender` (the callee of the chain's root call) is a knex instance or a transaction's handle. */
function tableCallWrite(
  call: TSESTree.CallExpression,
  method: string,
  sender: SqlSender,
  root: TSESTree.CallExpression,
  chain: readonly TSESTree.Node[],
): OrmWriteFacts | undefined {
  const writer = writersOf('table-call', method).find((candidate) => writesThrough(candidate, sender));
  if (!writer) return undefined;
  const table = root.arguments[0];
  return {
    node: call,
    library: writer.library,
    method,
    sender,
    table: table?.type === AST_NODE_TYPES.Literal ? String(table.value) : undefined,
    chain,
  };
}

/** A fence condition in the write's arguments: `where: { fence: { lt: f } }`, `.where('fence', '<', f)`, `lt(t.fence, f)`. */
export function ormWriteIsFenced(write: OrmWriteFacts, fenceColumns: readonly string[]): boolean {
  let fenced = false;
  const visit = (node: TSESTree.Node | null | undefined, depth: number): void => {
    if (!node || fenced || depth > 8) return;
    switch (node.type) {
      case AST_NODE_TYPES.CallExpression: {
        const [first, second] = node.arguments;
        if (
          first?.type === AST_NODE_TYPES.Literal &&
          fenceColumns.includes(String(first.value)) &&
          second?.type === AST_NODE_TYPES.Literal &&
          second.value === '<'
        )
          fenced = true;
        const callee = skipTypeWrappers(node.callee);
        if (
          callee.type === AST_NODE_TYPES.Identifier &&
          callee.name === 'lt' &&
          first?.type === AST_NODE_TYPES.MemberExpression &&
          fenceColumns.includes(propertyName(first) ?? '')
        )
          fenced = true;
        for (const argument of node.arguments) visit(argument, depth + 1);
        return;
      }
      case AST_NODE_TYPES.ObjectExpression:
        for (const property of node.properties) {
          if (property.type !== AST_NODE_TYPES.Property) continue;
          const key =
            property.key.type === AST_NODE_TYPES.Identifier
              ? property.key.name
              : property.key.type === AST_NODE_TYPES.Literal
                ? String(property.key.value)
                : '';
          if (
            fenceColumns.includes(key) &&
            property.value.type === AST_NODE_TYPES.ObjectExpression &&
            property.value.properties.some(
              (inner) => inner.type === AST_NODE_TYPES.Property && inner.key.type === AST_NODE_TYPES.Identifier && inner.key.name === 'lt',
            )
          )
            fenced = true;
          visit(property.value, depth + 1);
        }
        return;
      case AST_NODE_TYPES.ArrayExpression:
        for (const element of node.elements) visit(element, depth + 1);
        return;
      default:
        return;
    }
  };
  for (const node of write.chain) visit(node, 0);
  return fenced;
}

/**
 * `createMany({ skipDuplicates: true })`, `.onConflict().ignore()`, `.onConflictDoNothing()`, and an
 * upsert whose update is empty (`upsert({ where, update: {}, create })`): create-if-missing, which a
 * stale holder's second run leaves as it found it.
 */
export function ormWriteIsIdempotent(write: OrmWriteFacts): boolean {
  if (write.method === 'upsert') {
    const options = write.node.arguments[0] && skipTypeWrappers(write.node.arguments[0]);
    const update = options?.type === AST_NODE_TYPES.ObjectExpression ? propertyValue(options, 'update') : undefined;
    if (update?.type === AST_NODE_TYPES.ObjectExpression && update.properties.length === 0) return true;
  }
  for (const node of write.chain) {
    if (node.type !== AST_NODE_TYPES.CallExpression) continue;
    const callee = skipTypeWrappers(node.callee);
    const method = callee.type === AST_NODE_TYPES.MemberExpression ? propertyName(callee) : undefined;
    if (method === 'ignore' || method === 'onConflictDoNothing' || method === 'doNothing') return true;
    const options = node.arguments[0];
    if (
      options?.type === AST_NODE_TYPES.ObjectExpression &&
      options.properties.some(
        (property) =>
          property.type === AST_NODE_TYPES.Property &&
          property.key.type === AST_NODE_TYPES.Identifier &&
          property.key.name === 'skipDuplicates',
      )
    )
      return true;
  }
  return false;
}
