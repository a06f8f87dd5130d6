// The official SARIF 2.1.0 JSON schema (draft-04), as Microsoft ships it in @microsoft/jest-sarif, compiled with ajv.

import Ajv, { type ErrorObject } from 'ajv-draft-04';
import addFormats from 'ajv-formats';

// The final 2.1.0 schema (rtm.5, the one SchemaStore serves); the package has no exports map to hide it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sarifSchema = require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json') as object;

// The schema's `language` pattern has a stray `]` that only non-unicode regular expressions accept.
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);
const validateSarif = ajv.compile(sarifSchema);

/** Schema violations of `log`, one line each; empty when it is valid SARIF 2.1.0. */
export function sarifSchemaErrors(log: unknown): string[] {
  if (validateSarif(log)) return [];
  return (validateSarif.errors ?? []).map((error: ErrorObject) => `${error.instancePath || '/'} ${error.message ?? ''}`);
}
