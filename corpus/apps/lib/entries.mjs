// Reads the corpus entries and checks each against the format (FORMAT.md), before anything is scored.

import * as fs from 'node:fs';
import * as path from 'node:path';

const COMMIT = /^[0-9a-f]{40}$/;
const REPOSITORY = /^[A-Za-z0-9][A-Za-z0-9_.-]*\/[A-Za-z0-9_.-]+$/;
const KINDS = new Set(['redis', 'postgres', 'both']);

/** The rule ids of the rule catalogue (`1. **`no-check-then-set`** ...`), or null when it cannot be read. */
export function readCatalogueRuleIds(rulesMdFile) {
  let text;
  try {
    text = fs.readFileSync(rulesMdFile, 'utf8');
  } catch {
    return null;
  }
  const ids = new Set();
  for (const match of text.matchAll(/^\s*\d+\.\s+\*\*`([a-z0-9]+(?:-[a-z0-9]+)+)`\*\*/gm)) ids.add(match[1]);
  return ids.size > 0 ? ids : null;
}

/** The reserved repositories (lower-cased), or an empty set when the list cannot be read. */
export function readReservedRepositories(reservedFile) {
  try {
    const list = JSON.parse(fs.readFileSync(reservedFile, 'utf8')).repositories;
    return new Set(Array.isArray(list) ? list.map((name) => String(name).toLowerCase()) : []);
  } catch {
    return new Set();
  }
}

/** The checkout folder and entry file name of a repository: `owner/name` → `owner__name`. */
export function entrySlug(repository) {
  return repository.replace('/', '__');
}

/**
 * Every `*.json` of the entries folder, sorted: `{ file, entry }` for a finished one, `{ file,
 * inProgress: true }` for a claim placeholder (no `labelled` field yet), `{ file, problems }` for one
 * that does not parse.
 */
export function loadEntries(entriesDirectory) {
  const names = fs
    .readdirSync(entriesDirectory)
    .filter((name) => name.endsWith('.json'))
    .sort();
  return names.map((name) => {
    const file = path.join(entriesDirectory, name);
    let entry;
    try {
      entry = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (error) {
      return { file, problems: [`not JSON: ${error.message}`] };
    }
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return { file, problems: ['not a JSON object'] };
    if (entry.labelled === undefined) return { file, inProgress: true };
    return { file, entry };
  });
}

/**
 * The problems of one finished entry (empty when it is valid). `knownRuleIds` are the catalogue's and
 * the plugin's rule ids together; `reserved` the lower-cased reserved repositories.
 */
export function validateEntry(entry, fileName, { knownRuleIds, reserved = new Set() }) {
  const problems = [];
  const { repository, commit } = entry;
  if (typeof repository !== 'string' || !REPOSITORY.test(repository)) {
    problems.push('repository is not "owner/name"');
  } else {
    if (fileName !== undefined && fileName !== `${entrySlug(repository)}.json`) {
      problems.push(`file name should be ${entrySlug(repository)}.json`);
    }
    if (reserved.has(repository.toLowerCase())) problems.push('repository is reserved (reserved.json): it must not be in the corpus');
  }
  if (typeof commit !== 'string' || !COMMIT.test(commit)) problems.push('commit is not 40 lower-case hex digits');
  if (!KINDS.has(entry.kind)) problems.push('kind is not redis, postgres or both');
  if (typeof entry.shape !== 'string' || entry.shape.trim() === '') problems.push('shape is missing');
  if (!isStringArray(entry.tags)) problems.push('tags is not a list of strings');
  if (typeof entry.labelled !== 'string' || entry.labelled.trim() === '') problems.push('labelled is not a string');
  if (entry.questions !== undefined && !isStringArray(entry.questions)) problems.push('questions is not a list of strings');

  const files = new Set();
  if (!isStringArray(entry.files) || entry.files.length === 0) {
    problems.push('files is not a non-empty list of paths');
  } else {
    for (const file of entry.files) {
      if (!isRelativePath(file)) problems.push(`files: ${JSON.stringify(file)} is not a path relative to the repository root`);
      else if (files.has(file)) problems.push(`files: ${file} is listed twice`);
      files.add(file);
    }
  }

  const labels = Array.isArray(entry.expected) ? entry.expected : undefined;
  if (labels === undefined) problems.push('expected is not a list');
  for (const [index, label] of (labels ?? []).entries()) {
    const where = `expected[${index}]`;
    if (label === null || typeof label !== 'object') {
      problems.push(`${where} is not an object`);
      continue;
    }
    if (typeof label.rule !== 'string' || !knownRuleIds.has(label.rule))
      problems.push(`${where}: unknown rule ${JSON.stringify(label.rule)}`);
    if (!files.has(label.file)) problems.push(`${where}: file ${JSON.stringify(label.file)} is not in files`);
    if (!isLineNumber(label.line)) problems.push(`${where}: line is not a positive integer`);
    if (label.lines !== undefined) {
      const span = label.lines;
      if (!Array.isArray(span) || span.length !== 2 || !span.every(isLineNumber) || span[0] > span[1]) {
        problems.push(`${where}: lines is not [first, last] with 1 <= first <= last`);
      } else if (isLineNumber(label.line) && (label.line < span[0] || label.line > span[1])) {
        problems.push(`${where}: line ${label.line} is outside lines [${span[0]}, ${span[1]}]`);
      }
    }
    if (typeof label.reason !== 'string' || label.reason.trim() === '') problems.push(`${where}: reason is missing`);
  }

  const silent = entry.silent ?? [];
  if (!Array.isArray(silent)) problems.push('silent is not a list');
  for (const [index, line] of (Array.isArray(silent) ? silent : []).entries()) {
    const where = `silent[${index}]`;
    if (line === null || typeof line !== 'object') {
      problems.push(`${where} is not an object`);
      continue;
    }
    if (!files.has(line.file)) problems.push(`${where}: file ${JSON.stringify(line.file)} is not in files`);
    if (!isLineNumber(line.line)) problems.push(`${where}: line is not a positive integer`);
    if (typeof line.why !== 'string' || line.why.trim() === '') problems.push(`${where}: why is missing`);
    // A line both expected and silent cannot be scored: the finding on it would be a hit and a false positive.
    const clash = (labels ?? []).findIndex((label) => label?.file === line.file && spanCovers(label, line.line));
    if (clash !== -1 && isLineNumber(line.line)) problems.push(`${where}: line ${line.line} is also expected[${clash}]`);
  }
  const tags = isStringArray(entry.tags) ? entry.tags : [];
  if ((tags.includes('lookalike') || tags.includes('correct')) && Array.isArray(silent) && silent.length === 0) {
    problems.push('tagged lookalike or correct but silent is empty');
  }
  return problems;
}

/** Whether a label's own span (its `lines`, or its one `line`, without tolerance) holds `line`. */
function spanCovers(label, line) {
  if (Array.isArray(label?.lines) && label.lines.length === 2) return line >= label.lines[0] && line <= label.lines[1];
  return label?.line === line;
}

function isStringArray(value) {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isLineNumber(value) {
  return Number.isInteger(value) && value >= 1;
}

function isRelativePath(value) {
  if (typeof value !== 'string' || value === '' || value.includes('\\') || value.startsWith('/')) return false;
  return value.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}
