/** Data problems: the schema check's command and the Problems panel's diagnostics. */
import type * as vscode from 'vscode';
import type { Services } from '../services';
import { registerDiagnostics } from './diagnostics';
import { registerSchemaCheck } from './schemaCheck';

export function register(ctx: vscode.ExtensionContext, s: Services): void {
  registerSchemaCheck(ctx, s);
  registerDiagnostics(ctx, s);
}
