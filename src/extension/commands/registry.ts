/** Registers one module's commands: a handler for each of its ids, checked by the compiler. */
import * as vscode from 'vscode';

export type CommandHandler = (...args: unknown[]) => unknown;

export function registerCommands<const Ids extends readonly string[]>(
  ctx: vscode.ExtensionContext,
  ids: Ids,
  handlers: { [K in Ids[number]]: CommandHandler },
): void {
  const table: Record<string, CommandHandler> = handlers;
  for (const id of ids) {
    const fn = table[id];
    if (fn) ctx.subscriptions.push(vscode.commands.registerCommand(id, fn));
  }
}
