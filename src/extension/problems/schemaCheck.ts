/** The schema check of a run's credit log, written to the output channel. */
import * as vscode from 'vscode';
import type { Services } from '../services';
import type { SchemaCheck } from '../../core/record/schema';
import { pickRun } from '../runs/pickRun';
import { registerCommands } from '../commands/registry';
import { SCHEMA_COMMANDS } from '../commands/ids';
import { escapeNotification as esc } from '../text';

export function registerSchemaCheck(ctx: vscode.ExtensionContext, s: Services): void {
  registerCommands(ctx, SCHEMA_COMMANDS, {
    'rlRunBrowser.showSchemaCheck': (arg?: unknown) => showSchemaCheck(s, arg),
  });
}

async function showSchemaCheck(s: Services, arg: unknown): Promise<SchemaCheck | undefined> {
  const root = await pickRun(s.runs, arg);
  const live = root ? s.runs.get(root) : undefined;
  if (!live?.run.credit) return undefined;
  await live.run.update();
  const credit = live.run.credit;
  const c = credit.schemaCheck();
  const out = s.out;
  out.info(`Schema check of ${credit.path}: ${c.records} records, ${c.turns} turns`);
  for (const f of c.fields)
    out.info(
      `  ${f.level === 'turn' ? 'turn.' : ''}${f.field}${f.required ? ' (required)' : ''}: ` +
        `${f.foundAs.length ? f.foundAs.map((x) => `${x.name}${x.alias ? ' [alias]' : ''} x${x.count}`).join(', ') : 'not found'}` +
        `${f.missing > 0 && f.foundAs.length ? `; missing from ${f.missing}` : ''}`,
    );
  if (c.unknownTrajectoryKeys.length || c.unknownTurnKeys.length)
    out.info(
      `  extra fields (kept, shown in the detail view): ` +
        `${[...c.unknownTrajectoryKeys.map((k) => k.name), ...c.unknownTurnKeys.map((k) => `turn.${k.name}`)].join(', ')}`,
    );
  for (const sk of credit.skippedLines.slice(0, 50)) out.warn(`  ${credit.path}:${sk.line}: skipped: ${sk.message}`);
  out.show(true);
  if (c.notFound.length > 0)
    void vscode.window
      .showWarningMessage(
        `${esc(live.run.location.name)}: expected fields not found: ${esc(c.notFound.join(', '))}. Map them with the setting ` +
          `rlRunBrowser.fieldMapping.`,
        'Open setting',
      )
      .then((x) => {
        if (x) void vscode.commands.executeCommand('workbench.action.openSettings', 'rlRunBrowser.fieldMapping');
      });
  return c;
}
