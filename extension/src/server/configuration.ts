// The server's configuration: the client's locksmith.* settings per document (pulled once, cached)
// and the locksmith.json files read from disk as data, with the one warning a bad one gets.

import { DidChangeConfigurationNotification, type Connection, type InitializeParams } from 'vscode-languageserver/node';
import { pathToFileURL } from 'node:url';
import { ProjectConfigError, ProjectConfigLookup, type ProjectConfig } from 'eslint-plugin-locksmith/project-config';
import { SETTINGS_SECTION, Settings, type ClientFeatures } from '../shared/settings';
import type { Diagnostics } from './diagnostics';
import type { Log } from './log';
import { URI } from './uri';

export class Configuration {
  private canPull = false;
  private initialSettings: Settings = Settings.from(undefined);
  private readonly settingsCache = new Map<string, Promise<Settings>>();
  // locksmith.json is data: read from disk for file: documents, in untrusted workspaces too. Other
  // schemes (virtual workspaces) have no disk here, so only the locksmith.* settings apply to them.
  private readonly projectConfigs = new ProjectConfigLookup();
  /** Bad configuration files shown to the user, by URI, with the line shown, so each is said once. */
  private readonly shownConfigErrors = new Map<string, string>();

  constructor(
    private readonly connection: Connection,
    private readonly diagnostics: Diagnostics,
    private readonly log: Log,
  ) {}

  /** The client's capabilities and first settings, from `initialize`. */
  initialize(params: InitializeParams): void {
    this.canPull = params.capabilities.workspace?.configuration === true;
    const options = params.initializationOptions as ({ settings?: unknown } & ClientFeatures) | undefined;
    this.initialSettings = Settings.from(options?.settings);
  }

  /** After `initialized`: a client that can be asked for settings is asked to say when they change. */
  registerForChanges(): void {
    if (this.canPull) void this.connection.client.register(DidChangeConfigurationNotification.type, { section: SETTINGS_SECTION });
  }

  settingsFor(uri: string): Promise<Settings> {
    if (!this.canPull) return Promise.resolve(this.initialSettings);
    let settings = this.settingsCache.get(uri);
    if (settings === undefined) {
      settings = this.connection.workspace.getConfiguration({ scopeUri: uri, section: SETTINGS_SECTION }).then(
        (raw: unknown) => Settings.from(raw),
        () => this.initialSettings,
      );
      this.settingsCache.set(uri, settings);
    }
    return settings;
  }

  /** `workspace/didChangeConfiguration`: pulled settings are asked again; pushed ones are these. */
  settingsChanged(pushed: unknown): void {
    this.settingsCache.clear();
    if (!this.canPull) this.initialSettings = Settings.from((pushed as Record<string, unknown> | null)?.[SETTINGS_SECTION]);
  }

  /** A closed document's settings are asked again when it opens again. */
  forget(uri: string): void {
    this.settingsCache.delete(uri);
  }

  projectConfigFor(uri: string): ProjectConfig | undefined {
    if (!uri.startsWith('file:')) return undefined;
    try {
      return this.projectConfigs.forFile(URI.toFilePath(uri));
    } catch (error) {
      if (!(error instanceof ProjectConfigError)) throw error;
      this.showConfigError(error);
      // Linting goes on without the bad file, so the editor still shows findings while it is fixed.
      return undefined;
    }
  }

  /** A locksmith.json or package.json changed: each is read again, and its old warning goes. */
  projectFilesChanged(): void {
    this.projectConfigs.clear();
    for (const uri of this.shownConfigErrors.keys()) this.diagnostics.clear(uri);
    this.shownConfigErrors.clear();
  }

  private showConfigError(error: ProjectConfigError): void {
    const configUri = pathToFileURL(error.filePath).toString();
    if (this.shownConfigErrors.get(configUri) === error.message) return;
    this.shownConfigErrors.set(configUri, error.message);
    this.log(`Ignoring ${error.message}`);
    this.connection.window.showWarningMessage(`Locksmith: ${error.message} (the file is ignored until it is fixed)`);
    this.diagnostics.publishConfigError(configUri, `${error.key === '' ? '' : `${error.key}: `}${error.reason}`);
  }
}
