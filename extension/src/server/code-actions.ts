// Code actions: quick fixes per diagnostic, "Fix all" of a rule (resolved when chosen), the fix-all on
// save (`source.fixAll.locksmith`), the preferred fixes command's preview, and "Show documentation".

import { CodeActionKind, type CodeAction, type Connection, type TextDocuments, type WorkspaceEdit } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { PreferredFixesRequest, SHOW_DOCUMENTATION_COMMAND, type PreferredFixesParams } from '../shared/settings';
import type { Configuration } from './configuration';
import type { DocumentLints } from './document-lints';
import { fixAll, minimalEdit, type FixAllResult, type FixMode } from './fix-all';
import { FIX_ALL_KIND, confirmedEdit, pinnedEdit, quickFixes, toProblems, toTextEdit, type FixAllData, type Problem } from './problems';

export class CodeActions {
  constructor(
    private readonly connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly lints: DocumentLints,
    private readonly configuration: Configuration,
  ) {}

  listen(): void {
    const { connection, documents } = this;
    connection.onCodeAction(async (params) => {
      const document = documents.get(params.textDocument.uri);
      if (document === undefined) return [];
      const only = params.context.only;
      const actions: CodeAction[] = [];
      const wants = (kind: string): boolean =>
        only === undefined || only.some((requested) => kind === requested || kind.startsWith(`${requested}.`));
      if (wants(CodeActionKind.QuickFix)) {
        actions.push(...quickFixes(document, await this.lints.currentState(document), params.context.diagnostics));
      }
      if (only !== undefined && wants(FIX_ALL_KIND)) {
        // Asked for on save: computed now, since a save does not wait for a resolve round trip everywhere.
        // Autofixes only: a suggestion changes what runs against Redis or the database, and a save
        // applies it unseen. The explicit command (PreferredFixesRequest) previews those instead.
        const edit = await this.fixAllEdit(document, null, 'autofix');
        if (edit !== undefined) actions.push({ title: 'Fix all Locksmith problems', kind: FIX_ALL_KIND, edit });
      }
      return actions;
    });

    connection.onCodeActionResolve(async (action) => {
      const data = action.data as FixAllData | undefined;
      if (data === undefined) return action;
      const document = documents.get(data.uri);
      // Stale: the document moved on since the menu was built, so the fix is dropped.
      if (document?.version !== data.version) return action;
      // Chosen from the menu for one rule, so its preferred suggestions are what the user asked for.
      const edit = await this.fixAllEdit(document, data.ruleId, 'preferred');
      return edit === undefined ? action : { ...action, edit };
    });

    connection.onRequest(PreferredFixesRequest, async (params: PreferredFixesParams): Promise<WorkspaceEdit | null> => {
      const document = documents.get(params.uri);
      if (document === undefined || (params.version !== undefined && params.version !== document.version)) return null;
      const result = await this.fixAllResult(document, null, 'preferred');
      if (result === undefined || result.fixed === 0) return null;
      // Each fix is its own change in the preview when one pass applied them all; otherwise (fixes
      // that build on each other) the one smallest replacement, under every rule's name.
      const whole = minimalEdit(document.getText(), result.text);
      const changes = result.fixes ?? (whole === undefined ? [] : [{ ...whole, ruleId: result.rules.join(', '), desc: undefined }]);
      return changes.length === 0
        ? null
        : confirmedEdit(
            document,
            changes.map((fix) => ({ ruleId: fix.ruleId, desc: fix.desc, edit: toTextEdit(document, fix) })),
          );
    });

    connection.onExecuteCommand(async (params) => {
      if (params.command !== SHOW_DOCUMENTATION_COMMAND) return;
      const href: unknown = params.arguments?.[0];
      if (typeof href === 'string') await connection.window.showDocument({ uri: href, external: true });
    });
  }

  /** The fix-all of one rule (or of all rules) on the document's current text. */
  private async fixAllResult(document: TextDocument, ruleId: string | null, mode: FixMode): Promise<FixAllResult | undefined> {
    const settings = await this.configuration.settingsFor(document.uri);
    if (!settings.enable) return undefined;
    return fixAll(
      document.getText(),
      (candidate) => {
        const outcome = this.lints.lintDocumentText(document, settings, candidate);
        if (outcome.kind !== 'linted') return null;
        return toProblems(
          TextDocument.create(document.uri, document.languageId, document.version, candidate),
          outcome.messages,
          outcome.reports,
        ) satisfies Problem[];
      },
      (problemRule) => ruleId === null || problemRule === ruleId,
      mode,
    );
  }

  private async fixAllEdit(document: TextDocument, ruleId: string | null, mode: FixMode): Promise<WorkspaceEdit | undefined> {
    const result = await this.fixAllResult(document, ruleId, mode);
    const edit = result === undefined ? undefined : minimalEdit(document.getText(), result.text);
    return edit === undefined ? undefined : pinnedEdit(document, [toTextEdit(document, edit)]);
  }
}
