// What the server publishes about a file: its diagnostics, a bad configuration file's one error, and
// the status (linted, skipped, does not parse) the client shows, sent once per change of state.

import { DiagnosticSeverity, type Connection } from 'vscode-languageserver/node';
import { StatusNotification, type StatusParams } from '../shared/settings';
import type { Log } from './log';
import { toDiagnostic, type Problem } from './problems';
import { URI } from './uri';

export class Diagnostics {
  /** Last status sent per document, so the output gets one line per change of state, not per keystroke. */
  private readonly lastStatus = new Map<string, StatusParams['state']>();

  constructor(
    private readonly connection: Connection,
    private readonly log: Log,
  ) {}

  /** The problems of a document version (`version` undefined for a file that is not open). */
  publish(uri: string, version: number | undefined, problems: readonly Problem[]): void {
    void this.connection.sendDiagnostics({
      uri,
      ...(version === undefined ? {} : { version }),
      diagnostics: problems.map((problem) => toDiagnostic(problem, uri)),
    });
  }

  clear(uri: string): void {
    void this.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  /** A configuration file the server ignores: one error on its first line. */
  publishConfigError(uri: string, message: string): void {
    void this.connection.sendDiagnostics({
      uri,
      diagnostics: [
        {
          range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
          severity: DiagnosticSeverity.Error,
          source: 'locksmith',
          message,
        },
      ],
    });
  }

  reportStatus(uri: string, state: StatusParams['state'], detail?: string): void {
    if (this.lastStatus.get(uri) === state) return;
    this.lastStatus.set(uri, state);
    const name = URI.displayName(uri);
    if (state === 'skipped') this.log(`Skipped ${name}: ${detail ?? ''}`);
    if (state === 'parseError') this.log(`No findings for ${name} while it does not parse (${detail ?? ''})`);
    void this.connection.sendNotification(StatusNotification, {
      uri,
      state,
      ...(detail === undefined ? {} : { detail }),
    } satisfies StatusParams);
  }

  isSkipped(uri: string): boolean {
    return this.lastStatus.get(uri) === 'skipped';
  }

  /** The document closed: its diagnostics go, and its next status is sent whatever it is. */
  closed(uri: string): void {
    this.lastStatus.delete(uri);
    this.clear(uri);
  }
}
