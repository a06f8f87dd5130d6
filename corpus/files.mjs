// The real-package corpus on disk: installs corpus/package-lock.json when needed and lists the files to lint.
//
// Shared by `npm run corpus` (corpus/run.mjs) and `npm run bench` (its lock-dense corpus), so both read
// exactly the same files: every .js/.mjs/.cjs/.ts/.mts/.cts file (no declaration files) that one of the
// listed packages ships, without descending into the packages' own node_modules, since dependencies are
// in the corpus only when they are listed themselves.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const corpusDirectory = path.dirname(fileURLToPath(import.meta.url));
export const corpusModules = path.join(corpusDirectory, 'node_modules');
const WITHOUT_NPM_ENV = path.join(corpusDirectory, '..', 'scripts', 'without-npm-env.sh');
const INSTALLED_MARKER = path.join(corpusModules, '.locksmith-corpus.sha256');
// Everything npm ci reads: a change to any of them means a fresh install.
const INSTALL_INPUTS = ['package.json', 'package-lock.json', '.npmrc'];

export const CORPUS_EXTENSIONS = ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts'];
const DECLARATION_FILE = /\.d\.[cm]?ts$/;

/** The dependency names of corpus/package.json, aliases included (`redlock5`), sorted. */
export function corpusPackageNames() {
  const manifest = JSON.parse(fs.readFileSync(path.join(corpusDirectory, 'package.json'), 'utf8'));
  return Object.keys(manifest.dependencies).sort();
}

function installInputsHash() {
  const hash = createHash('sha256');
  for (const name of INSTALL_INPUTS) hash.update(`${name}\0${fs.readFileSync(path.join(corpusDirectory, name))}\0`);
  return hash.digest('hex');
}

/**
 * Runs `npm ci --ignore-scripts` in corpus/ unless what is installed came from the same inputs. The
 * packages are read, never run, so no install script is needed. Returns whether it installed.
 */
export function ensureCorpusInstalled({ log = (line) => console.error(line) } = {}) {
  const wanted = installInputsHash();
  if (fs.existsSync(INSTALLED_MARKER) && fs.readFileSync(INSTALLED_MARKER, 'utf8').trim() === wanted) return false;
  log('corpus: installing corpus/package-lock.json (npm ci --ignore-scripts)…');
  // Run from `npm test`, the outer npm's npm_config_* would otherwise become this install's configuration.
  execFileSync('bash', [WITHOUT_NPM_ENV, 'npm', 'ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: corpusDirectory,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  fs.writeFileSync(INSTALLED_MARKER, `${wanted}\n`);
  return true;
}

/**
 * Absolute paths of the corpus files, sorted, each with the package that ships it. `npm run corpus`
 * adds `.lua` (the Redis scripts queue libraries ship, read by the Lua language); the bench does not.
 */
export function collectCorpusFiles({ extensions = CORPUS_EXTENSIONS } = {}) {
  const files = [];
  for (const name of corpusPackageNames()) {
    const packageDirectory = path.join(corpusModules, name);
    if (!fs.existsSync(packageDirectory)) throw new Error(`corpus package ${name} is not installed in ${corpusModules}`);
    walk(packageDirectory, files, extensions);
  }
  return files.sort();
}

function walk(directory, files, extensions) {
  for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
    const child = path.join(directory, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') walk(child, files, extensions);
    } else if (entry.isFile() && extensions.includes(path.extname(entry.name)) && !DECLARATION_FILE.test(entry.name)) {
      files.push(child);
    }
  }
}
