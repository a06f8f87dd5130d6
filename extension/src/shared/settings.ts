// The extension's settings (`locksmith.*`): one typed shape, normalised from whatever the user wrote.

import type { LockSummary } from 'eslint-plugin-locksmith/lock-map';

export type RunMode = 'onType' | 'onSave';
export type RuleSeverity = 'error' | 'warn' | 'off';

export interface Settings {
  enable: boolean;
  run: RunMode;
  /** Rule id (without the `locksmith/` prefix) to the severity the user chose. */
  rules: Record<string, RuleSeverity>;
  /** Source of a regular expression (case-insensitive) that marks a key as a lock key; null keeps the plugin's default. */
  lockKeyPattern: string | null;
  efficiencyLocks: string[];
  fenceColumns: string[];
  maxFileSizeKb: number;
  typeAware: boolean;
}

export const SETTINGS_SECTION = 'locksmith';

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  enable: true,
  run: 'onType',
  rules: {},
  lockKeyPattern: null,
  efficiencyLocks: [],
  fenceColumns: [],
  maxFileSizeKb: 512,
  typeAware: false,
});

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const RunMode = {
  from(value: unknown): RunMode {
    return value === 'onSave' ? 'onSave' : 'onType';
  },
};

export const RuleSeverity = {
  /** Accepts the words and ESLint's numbers; anything else is not a severity. */
  from(value: unknown): RuleSeverity | undefined {
    switch (value) {
      case 'error':
      case 2:
        return 'error';
      case 'warn':
      case 'warning':
      case 1:
        return 'warn';
      case 'off':
      case 0:
        return 'off';
      default:
        return undefined;
    }
  },
};

export const RuleSettings = {
  /** Keys may carry the `locksmith/` prefix, as in an ESLint config; the stored key never does. */
  from(value: unknown): Record<string, RuleSeverity> {
    const rules: Record<string, RuleSeverity> = {};
    if (!isRecord(value)) return rules;
    for (const [key, raw] of Object.entries(value)) {
      const severity = RuleSeverity.from(Array.isArray(raw) ? (raw as unknown[])[0] : raw);
      const ruleId = key.replace(/^locksmith\//, '').trim();
      if (severity !== undefined && ruleId !== '') rules[ruleId] = severity;
    }
    return rules;
  },
};

export const LockKeyPattern = {
  /** An empty or invalid pattern falls back to the plugin's default rather than breaking every lint. */
  from(value: unknown): string | null {
    if (typeof value !== 'string' || value.trim() === '') return null;
    try {
      new RegExp(value, 'i');
      return value;
    } catch {
      return null;
    }
  },
};

export const StringList = {
  from(value: unknown): string[] {
    if (typeof value === 'string') value = [value];
    if (!Array.isArray(value)) return [];
    const items = value.filter((item): item is string => typeof item === 'string').map((item) => item.trim());
    return [...new Set(items.filter((item) => item !== ''))];
  },
};

export const MaxFileSizeKb = {
  from(value: unknown): number {
    const size = typeof value === 'string' ? Number(value) : value;
    return typeof size === 'number' && Number.isFinite(size) && size > 0 ? size : DEFAULT_SETTINGS.maxFileSizeKb;
  },
};

export const Settings = {
  from(value: unknown): Settings {
    const raw = isRecord(value) ? value : {};
    return {
      enable: typeof raw.enable === 'boolean' ? raw.enable : DEFAULT_SETTINGS.enable,
      run: RunMode.from(raw.run),
      rules: RuleSettings.from(raw.rules),
      lockKeyPattern: LockKeyPattern.from(raw.lockKeyPattern),
      efficiencyLocks: StringList.from(raw.efficiencyLocks),
      fenceColumns: StringList.from(raw.fenceColumns),
      maxFileSizeKb: MaxFileSizeKb.from(raw.maxFileSizeKb),
      typeAware: typeof raw.typeAware === 'boolean' ? raw.typeAware : DEFAULT_SETTINGS.typeAware,
    };
  },
};

/** The rule options the plugin reads from ESLint's shared `settings.locksmith`; the only place that mapping lives. */
export interface LocksmithSharedSettings {
  lockKeyPattern?: string;
  efficiencyLocks?: string[];
  fenceColumns?: string[];
}

export function toSharedSettings(settings: Settings): { locksmith: LocksmithSharedSettings } {
  const locksmith: LocksmithSharedSettings = {};
  if (settings.lockKeyPattern !== null) locksmith.lockKeyPattern = settings.lockKeyPattern;
  if (settings.efficiencyLocks.length > 0) locksmith.efficiencyLocks = settings.efficiencyLocks;
  if (settings.fenceColumns.length > 0) locksmith.fenceColumns = settings.fenceColumns;
  return { locksmith };
}

/** Custom protocol between client and server, beyond plain LSP. */
export const LintTextRequest = 'locksmith/lintText';
export interface LintTextParams {
  uri: string;
  languageId: string;
  text: string;
}
export interface LintTextResult {
  problems: number;
  skipped: boolean;
}

/**
 * The preferred suggestion (or autofix) of every finding in an open document, as a WorkspaceEdit
 * whose changes carry a change annotation with `needsConfirmation`; null when there is nothing to fix
 * or the document moved past `version`. The command "Locksmith: Apply preferred fixes in this file".
 */
export const PreferredFixesRequest = 'locksmith/preferredFixes';
export interface PreferredFixesParams {
  uri: string;
  version?: number;
}
export const APPLY_PREFERRED_FIXES_COMMAND = 'locksmith.applyPreferredFixes';

/** The rules the server's bundled plugin exports, with their documentation links. */
export const RulesRequest = 'locksmith/rules';
export interface RuleInfo {
  id: string;
  docsUrl: string | null;
  /** On in the plugin's `recommended` config, so on in the editor unless `locksmith.rules` turns it off. */
  recommended: boolean;
  /** Its findings can carry suggestions, which the editor offers as quick fixes. */
  hasSuggestions: boolean;
}

/** Which process serves (the output shows it; tests use it to check the client restarts a dead server). */
export const ServerInfoRequest = 'locksmith/serverInfo';
export interface ServerInfo {
  pid: number;
  node: string;
}

export const StatusNotification = 'locksmith/status';
export interface StatusParams {
  uri: string;
  state: 'ok' | 'skipped' | 'parseError';
  detail?: string;
}

export const SHOW_DOCUMENTATION_COMMAND = 'locksmith.showDocumentation';

/**
 * Server to client: the text of files in a virtual workspace (a non-`file:` workspace folder), read
 * with `vscode.workspace.fs`, for the modules an open document imports. The server asks only when the
 * client said it answers (`initializationOptions.readFiles`), a bounded batch per lint (module-host.ts).
 * One result per URI, in order: `text` is null when the file is missing, not a file, unreadable, or
 * larger than `maxBytes`.
 */
export const ReadFilesRequest = 'locksmith/readFiles';
export interface ReadFilesParams {
  uris: string[];
  maxBytes: number;
}
export interface ReadFileResult {
  uri: string;
  text: string | null;
}
/** What the client tells the server it supports, in `initializationOptions`. */
export interface ClientFeatures {
  /** The client answers ReadFilesRequest. */
  readFiles?: boolean;
}

/**
 * The lock map of the workspace (the Explorer's Locksmith view): the server lints each file it is
 * given (open documents from the editor's text, others from disk, read and never run) and returns
 * every lock each file takes, from the plugin's lock model. Files unchanged since the last request
 * (same version, or same size and modification time on disk) are not analysed again. The server
 * shows its progress (window/workDoneProgress) and stops early when the request or the progress is
 * cancelled, returning what it has with `cancelled: true`.
 */
export const LockMapRequest = 'locksmith/lockMap';
export interface LockMapParams {
  /** The files to index: the client enumerates them as "Lint workspace" does. */
  uris: string[];
}
export interface LockMapFinding {
  ruleId: string;
  message: string;
  range: LockSummary['acquired'];
}
export interface LockMapLock extends LockSummary {
  /** The findings on the lock's acquisition, release or renewal, or inside its critical section. */
  findings: LockMapFinding[];
}
export interface LockMapFile {
  uri: string;
  locks: LockMapLock[];
}
export interface LockMapResult {
  files: LockMapFile[];
  /** Files looked at, and of those the ones linted again (new or changed since the last request). */
  indexed: number;
  analysed: number;
  ms: number;
  cancelled: boolean;
}

/** One line for a CodeLens or a tooltip: "lock `invoice:{id}` · TTL 30 s · token: randomUUID · released in finally · writes not fenced". */
export function lockLine(lock: LockSummary): string {
  const released =
    lock.releases.length === 0
      ? 'never released here'
      : lock.releases.every((site) => site.note.startsWith('in finally'))
        ? 'released in finally'
        : 'released outside finally';
  const owner = lock.releases.some((site) => site.note.includes('not owner-checked')) ? ' (not owner-checked)' : '';
  const renewed =
    lock.renewals.length === 0
      ? ''
      : ` · renewed${lock.renewals.some((site) => site.note === 'not owner-checked') ? ' (not owner-checked)' : ''}`;
  return `${lock.kind} lock \`${lock.name}\` · TTL ${lock.ttl} · token: ${lock.token} · ${released}${owner}${renewed} · ${lock.writes}`;
}

/** Focuses the Explorer's Locksmith view (the CodeLens's command); its argument is the lock's name. */
export const SHOW_LOCK_MAP_COMMAND = 'locksmith.showLockMap';
export const LOCK_MAP_VIEW = 'locksmith.lockMap';
