/**
 * The runs' data problems in VS Code's Problems panel: one diagnostic per problem, on
 * the log file at its line, kept up to date as the logs grow and dropped with the run.
 */
import * as vscode from 'vscode';
import type { RunService } from '../runs/runService';
import type { Services } from '../services';
import { Disposable, toDisposable } from '../dispose';
import { moreProblems, runProblems } from './dataProblems';
import type { DataProblem, RunProblems } from './dataProblems';

export const DIAGNOSTIC_SOURCE = 'RL Runs';

function toDiagnostic(p: DataProblem): vscode.Diagnostic {
  const line = Math.max(0, p.line - 1);
  const d = new vscode.Diagnostic(
    new vscode.Range(line, 0, line, Number.MAX_SAFE_INTEGER),
    p.message,
    p.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
  );
  d.source = DIAGNOSTIC_SOURCE;
  d.code = p.kind;
  return d;
}

/** Diagnostics by file for one run's problems, each kind bounded, with its summary entry. */
export function diagnosticsByFile(p: RunProblems): Map<string, vscode.Diagnostic[]> {
  const out = new Map<string, vscode.Diagnostic[]>();
  for (const g of p.groups) {
    const list = out.get(g.file) ?? [];
    list.push(...g.problems.map(toDiagnostic));
    const more = moreProblems(g);
    if (more) list.push(toDiagnostic(more));
    out.set(g.file, list);
  }
  return out;
}

export class ProblemDiagnostics extends Disposable {
  private readonly collection = this._register(vscode.languages.createDiagnosticCollection('rlRunBrowser.dataProblems'));
  /** the files each run has diagnostics on */
  private readonly files = new Map<string, string[]>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly runs: RunService) {
    super();
    this._register(toDisposable(() => clearTimeout(this.timer)));
    this._register(
      runs.onDidChange(() => {
        this.timer ??= setTimeout(() => {
          this.timer = undefined;
          this.update();
        }, 300);
      }),
    );
    this.update();
  }

  /** Sets every run's diagnostics from what its indexes hold; a run that went away loses its own. */
  update(): void {
    const seen = new Set<string>();
    for (const live of this.runs.list()) {
      const root = live.run.location.root;
      seen.add(root);
      const byFile = diagnosticsByFile(runProblems(live.run));
      for (const f of this.files.get(root) ?? []) if (!byFile.has(f)) this.collection.delete(vscode.Uri.file(f));
      for (const [f, ds] of byFile) this.collection.set(vscode.Uri.file(f), ds);
      this.files.set(root, [...byFile.keys()]);
    }
    for (const [root, files] of [...this.files]) {
      if (seen.has(root)) continue;
      for (const f of files) this.collection.delete(vscode.Uri.file(f));
      this.files.delete(root);
    }
  }
}

export function registerDiagnostics(ctx: vscode.ExtensionContext, s: Services): void {
  ctx.subscriptions.push(new ProblemDiagnostics(s.runs));
}
