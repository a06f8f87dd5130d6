// The CLI's side of locksmith.json: which files a configuration ignores (a notice for those named
// explicitly), a bad file as one usage line, and the JSON that lets every thread rebuild the same
// config objects (planCliProjectConfig is the one home of what those objects are).

import * as path from 'node:path';
import locksmith from '../index.js';
import { planCliProjectConfig, ProjectConfigError, ProjectConfigLookup } from '../project-config/index.js';
import type { CliProjectConfigInput } from './config.js';
import { UsageError } from './usage-error.js';

export interface ProjectConfigRequest {
  files: readonly string[];
  /** Absolute paths named on the command line (or --stdin-filename): they get a notice when ignored. */
  named: ReadonlySet<string>;
  configFile: string | undefined;
  configLookup: boolean;
  cwd: string;
}

export interface ProjectConfigPlan {
  input: CliProjectConfigInput;
  /** The files to lint: those given minus those their configuration ignores, in the same order. */
  files: string[];
  /** One line each for an explicitly named file that a configuration ignores. */
  ignoredNotices: string[];
}

export function planProjectConfigs(request: ProjectConfigRequest): ProjectConfigPlan {
  const options = { cwd: request.cwd, configFile: request.configFile, lookup: request.configLookup };
  let plan: ReturnType<typeof planCliProjectConfig>;
  try {
    plan = planCliProjectConfig(locksmith, request.files, options);
  } catch (error) {
    // A bad locksmith.json is the user's to fix: one line naming the file and the key, exit 2.
    if (error instanceof ProjectConfigError) throw new UsageError(error.describe(request.cwd));
    throw error;
  }
  const configOf = ignoringConfig(request);
  const ignoredNotices = plan.ignored
    .filter((file) => request.named.has(file))
    .map((file) => `ignored by ${shown(request.cwd, configOf(file))}: ${shown(request.cwd, file)}`);
  return {
    // Which configuration owns a file depends only on its folder: one file per folder is enough
    // for another thread to find the same configurations, and keeps the options module's URL short.
    input: { ...options, representatives: onePerFolder(plan.files) },
    files: plan.files,
    ignoredNotices,
  };
}

function onePerFolder(files: readonly string[]): string[] {
  const byFolder = new Map<string, string>();
  for (const file of files) {
    const folder = path.dirname(file);
    if (!byFolder.has(folder)) byFolder.set(folder, file);
  }
  return [...byFolder.values()];
}

// The configuration whose `ignores` matched: -c's, or the file's nearest (an ignored file has one).
function ignoringConfig(request: ProjectConfigRequest): (file: string) => string {
  if (request.configFile !== undefined) {
    const explicit = path.resolve(request.cwd, request.configFile);
    return () => explicit;
  }
  const lookup = new ProjectConfigLookup();
  return (file) => lookup.forFile(file)?.filePath ?? file;
}

function shown(cwd: string, filePath: string): string {
  return path.relative(cwd, filePath) || filePath;
}
