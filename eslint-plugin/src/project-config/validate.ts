// A small JSON-schema checker for the keywords locksmith.json's schema uses, so the loader needs no
// validator at run time (the extension bundles it) and stops at the first problem, which it names.

import { SEVERITY_VALUES, type JsonSchema } from './schema.js';

/** What this checker understands; a test walks the shipped schema and fails on any other keyword. */
export const SUPPORTED_KEYWORDS: ReadonlySet<string> = new Set([
  // assertions
  'type',
  'properties',
  'additionalProperties',
  'items',
  'additionalItems',
  'minItems',
  'enum',
  'minimum',
  'minLength',
  'anyOf',
  // annotations, no effect on validity
  '$schema',
  '$id',
  'title',
  'description',
  'markdownDescription',
  'default',
]);

export interface SchemaViolation {
  /** Keys and indexes from the root to the offending value. */
  readonly path: readonly (string | number)[];
  readonly reason: string;
  /** An object key the schema does not allow (the loader words it per place: "unknown rule"). */
  readonly unknownKey: boolean;
}

export function firstViolation(value: unknown, schema: JsonSchema, path: readonly (string | number)[] = []): SchemaViolation | undefined {
  const fail = (reason: string, unknownKey = false): SchemaViolation => ({ path, reason, unknownKey });

  if (Array.isArray(schema['anyOf'])) {
    const branches = schema['anyOf'] as JsonSchema[];
    const violations = branches.map((branch) => firstViolation(value, branch, path));
    if (violations.some((violation) => violation === undefined)) return undefined;
    // Report from the branch meant for this kind of value: the array form for arrays, else the other.
    const meant = branches.findIndex((branch) => (branch['type'] === 'array') === Array.isArray(value));
    return violations[meant === -1 ? 0 : meant];
  }

  const type = schema['type'];
  if (typeof type === 'string' && !hasType(value, type)) return fail(`must be ${article(type)} ${type}, not ${describe(value)}`);

  if (Array.isArray(schema['enum'])) {
    const allowed = schema['enum'] as readonly unknown[];
    if (!allowed.includes(value)) {
      return fail(
        allowed === SEVERITY_VALUES
          ? `bad severity ${describe(value)} (use off, warn, error, 0, 1 or 2)`
          : `must be one of ${allowed.map((item) => JSON.stringify(item)).join(', ')}, not ${describe(value)}`,
      );
    }
  }

  if (typeof value === 'string' && typeof schema['minLength'] === 'number' && value.length < schema['minLength']) {
    return fail('must not be empty');
  }
  if (typeof value === 'number' && typeof schema['minimum'] === 'number' && value < schema['minimum']) {
    return fail(`must be at least ${schema['minimum']}, not ${value}`);
  }

  if (Array.isArray(value)) return arrayViolation(value, schema, path);
  if (isRecord(value)) return objectViolation(value, schema, path);
  return undefined;
}

function arrayViolation(value: readonly unknown[], schema: JsonSchema, path: readonly (string | number)[]): SchemaViolation | undefined {
  const minItems = schema['minItems'];
  if (typeof minItems === 'number' && value.length < minItems) {
    return { path, reason: `must hold at least ${minItems} item${minItems === 1 ? '' : 's'}`, unknownKey: false };
  }
  const items = schema['items'];
  if (Array.isArray(items)) {
    const tuple = items as JsonSchema[];
    if (schema['additionalItems'] === false && value.length > tuple.length) {
      const options = tuple.length - 1;
      return {
        path: [...path, tuple.length],
        reason: options === 0 ? 'this rule takes no options' : `too many items (at most ${tuple.length})`,
        unknownKey: false,
      };
    }
    for (const [index, itemSchema] of tuple.entries()) {
      if (index >= value.length) break;
      const violation = firstViolation(value[index], itemSchema, [...path, index]);
      if (violation) return violation;
    }
  } else if (isRecord(items)) {
    for (const [index, item] of value.entries()) {
      const violation = firstViolation(item, items, [...path, index]);
      if (violation) return violation;
    }
  }
  return undefined;
}

function objectViolation(
  value: Readonly<Record<string, unknown>>,
  schema: JsonSchema,
  path: readonly (string | number)[],
): SchemaViolation | undefined {
  const properties = isRecord(schema['properties']) ? (schema['properties'] as Record<string, JsonSchema>) : {};
  for (const [key, item] of Object.entries(value)) {
    const propertySchema = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (propertySchema !== undefined) {
      const violation = firstViolation(item, propertySchema, [...path, key]);
      if (violation) return violation;
    } else if (schema['additionalProperties'] === false) {
      return { path: [...path, key], reason: 'unknown key', unknownKey: true };
    } else if (isRecord(schema['additionalProperties'])) {
      const violation = firstViolation(item, schema['additionalProperties'], [...path, key]);
      if (violation) return violation;
    }
  }
  return undefined;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'object':
      return isRecord(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'null':
      return value === null;
    default:
      return false;
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? 'an' : 'a';
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
