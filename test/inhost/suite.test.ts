/**
 * Runs inside the real extension host (code-server, loaded through the workbench's
 * `extensionTestsPath`): every contributed command runs without throwing on the demo
 * run, a settings change is picked up, and sign-in against the emulator stores the token.
 */
import * as vscode from 'vscode';
import { mkdtempSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import type { RlRunBrowserApi } from '../../src/extension/api';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreditIndex } from '../../src/core/log/creditIndex';
import { computeReport } from '../../src/core/report/report';

const REPO = 'XunmeiLiu/openwebrl-ws-credit-beta0.4';

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`in-host check failed: ${what}`);
  console.log(`ok - ${what}`);
}

async function until<T>(fn: () => T | Promise<T>, what: string, ms = 30_000): Promise<NonNullable<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Runs a command that may prompt; closes any prompt it opens; it must not throw. */
async function runCommand(id: string, ...args: unknown[]): Promise<unknown> {
  const p = Promise.resolve(vscode.commands.executeCommand(id, ...args));
  const closer = setInterval(() => {
    void vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  }, 400);
  try {
    return await p;
  } finally {
    clearInterval(closer);
  }
}

export async function run(): Promise<void> {
  const ext = vscode.extensions.all.find((e) => e.id.toLowerCase() === 'rl-run-browser.rl-run-browser');
  check(ext !== undefined, 'the extension is installed');
  const api = (await ext!.activate()) as RlRunBrowserApi;
  // the workspace folder's run, by path: the logs downloadLogs fetches below become a second
  // run, and its name (logs-copy) sorts before the demo run's (run)
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const root = await until(() => api.runRoots().find((r) => r === folder), 'the demo run to be found');
  // a report exists as soon as the run is found, while its log is still being read: wait
  // for every line of the log, or the tau 10 check below waits for a count it never sees
  const lines = readFileSync(join(root, 'logs', 'ws_credit_log.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim()).length;
  console.log(`the first report of the demo run counts ${api.report(root)?.trajectories ?? 'no'} of its ${lines} trajectories`);
  const indexed = (): ReturnType<RlRunBrowserApi['report']> => {
    const r = api.report(root);
    return r?.trajectories === lines ? r : undefined;
  };
  const before = await until(indexed, `the demo run to be indexed (${lines} trajectories)`);
  check(before.cMismatches === 0, `the demo run has no c mismatch at tau 20 (${before.trajectories} trajectories)`);

  // a large log's parts are indexed in worker processes forked from this extension host: the same index as one thread
  const log = join(root, 'logs', 'ws_credit_log.jsonl');
  const workerPath = join(ext!.extensionPath, 'dist', 'indexWorker.js');
  const one = new CreditIndex(log);
  await one.update();
  const two = new CreditIndex(log, undefined, undefined, { threads: { threads: 2, minBytes: 0, workerPath } });
  await two.update();
  check(
    two.threadsUsed === 2 && two.threadError === undefined && two.size === one.size,
    `the demo log indexed in 2 worker processes from the extension host (${two.threadError ?? `${two.threadsUsed} threads, ${two.threadedParts} parts`})`,
  );
  check(
    JSON.stringify(computeReport(two).report) === JSON.stringify(computeReport(one).report),
    'the same report from 2 worker processes as from one thread',
  );

  const pkg = ext!.packageJSON as { contributes: { commands: { command: string }[] } };
  const ids = pkg.contributes.commands.map((c) => c.command);
  const registered = new Set(await vscode.commands.getCommands(true));
  for (const id of ids) check(registered.has(id), `${id} is registered`);

  const dest = mkdtempSync(join(tmpdir(), 'rlrb-inhost-'));
  const argsFor: Record<string, unknown[]> = {
    'rlRunBrowser.openMetrics': [root],
    'rlRunBrowser.openReport': [root],
    'rlRunBrowser.openTrajectories': [{ root, iteration: 3, group: 1, rollout: 2 }],
    'rlRunBrowser.showSchemaCheck': [root],
    'rlRunBrowser.downloadLogs': [{ kind: 'folder', repo: REPO, folder: 'logs' }, join(dest, 'logs-copy')],
    'rlRunBrowser.downloadWeights': [{ kind: 'iteration', repo: REPO, folder: 'hf', iteration: 44 }, join(dest, 'hf')],
    'rlRunBrowser.copyDownloadCommand': [{ kind: 'iteration', repo: REPO, folder: 'resume', iteration: 39 }],
    'rlRunBrowser.signIn': ['hf_demo_token_for_the_emulator'],
  };
  // commands that would leave the workbench (a browser tab, the OS file manager) run last or not at all
  const skip = new Set([
    'rlRunBrowser.openOnHub',
    'rlRunBrowser.revealDownload',
    'rlRunBrowser.signOut',
    'rlRunBrowser.unfollowRepo',
    'rlRunBrowser.followRepo',
  ]);
  for (const id of ids) {
    if (skip.has(id)) continue;
    try {
      await runCommand(id, ...(argsFor[id] ?? []));
      check(true, `${id} ran`);
    } catch (e) {
      throw new Error(`${id} threw: ${(e as Error).message}`);
    }
  }
  check(existsSync(join(dest, 'hf', 'iter_0000044', 'config.json')), 'downloadWeights put iter_0000044 in place');
  check(existsSync(join(dest, 'logs-copy', 'logs', 'ws_metrics.jsonl')), 'downloadLogs fetched the logs');
  check(
    (await vscode.env.clipboard.readText()).startsWith(`npx rlrb download '${REPO}' --kind 'resume' --iteration '39' --dest '`),
    'the download command was copied',
  );

  // sign-in stored the token (checked with whoami first); a bad token is refused
  check(await api.hasStoredToken(), 'SecretStorage holds the token after sign-in');
  check((await runCommand('rlRunBrowser.signIn', 'hf_not_a_valid_token_x')) === false, 'a token the Hub rejects is not kept');
  await runCommand('rlRunBrowser.signOut');
  check(!(await api.hasStoredToken()), 'sign-out removes the token');

  // a settings change is picked up: tau 10 recomputes the credit
  const cfg = vscode.workspace.getConfiguration('rlRunBrowser');
  const t = Date.now();
  await cfg.update('tau', 10, vscode.ConfigurationTarget.Global);
  await until(() => api.settingsTau() === 10, 'the tau setting to be read');
  const after = await until(() => {
    const r = indexed();
    return r && r.cMismatches > 0 ? r : undefined;
  }, 'the report at tau 10');
  check(
    after.cMismatches > 0,
    `tau 10 gives ${after.cMismatches} c mismatches (indexed again in ${((Date.now() - t) / 1000).toFixed(1)} s)`,
  );
  await cfg.update('tau', undefined, vscode.ConfigurationTarget.Global);
  await until(() => api.settingsTau() === 20, 'tau back to 20');
  // following and unfollowing a repo
  await cfg.update('repos', [REPO, 'acme/other'], vscode.ConfigurationTarget.Global);
  await runCommand('rlRunBrowser.unfollowRepo', { kind: 'repo', repo: 'acme/other' });
  check(
    JSON.stringify(vscode.workspace.getConfiguration('rlRunBrowser').get('repos')) === JSON.stringify([REPO]),
    'unfollow removes the repo from the setting',
  );

  await agentToolChecks(api, root);
}

/** The MCP server definition the editor gets, spawned as the editor spawns it; and open_in_viewer opening the browser at a trajectory. */
async function agentToolChecks(api: RlRunBrowserApi, root: string): Promise<void> {
  const provide = api.agentTools.mcpServers;
  check(provide !== undefined, 'the MCP server definition provider is registered');
  const defs = (await provide!()) as { label: string; command: string; args: string[]; env: Record<string, string> }[];
  const def = defs[0]!;
  check(
    defs.length === 1 && def.args[1] === 'mcp' && def.args.join(' ').includes(`--root ${root}`) && def.env['ELECTRON_RUN_AS_NODE'] === '1',
    `one MCP server, ${def.label}: ${def.args.slice(1, 4).join(' ')}...`,
  );
  check(
    !def.args.some((a) => /hf_/.test(a)) && def.env['HF_TOKEN'] === undefined,
    'no token in its arguments nor in the listed definition',
  );
  const client = new Client({ name: 'inhost', version: '1' });
  await client.connect(
    new StdioClientTransport({ command: def.command, args: def.args, env: { ...(process.env as Record<string, string>), ...def.env } }),
  );
  try {
    const names = (await client.listTools()).tools.map((t) => t.name);
    check(names.includes('run_report') && names.includes('get_trajectory'), `the server lists ${names.length} tools`);
    const r = (await client.callTool({ name: 'run_report', arguments: { run: root } })) as {
      structuredContent?: { trajectories?: number };
    };
    check(
      r.structuredContent?.trajectories === api.report(root)?.trajectories,
      `run_report over MCP counts ${r.structuredContent?.trajectories} trajectories, as the panels`,
    );
  } finally {
    await client.close();
  }
  check(
    vscode.lm.tools.some((t) => t.name === 'open_in_viewer'),
    'open_in_viewer is registered',
  );
  const first = JSON.parse(
    readFileSync(join(root, 'logs', 'ws_credit_log.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim())[2]!,
  ) as {
    iteration: number;
    group: number;
    rollout: number;
  };
  const at = { iteration: first.iteration, group: first.group, rollout: first.rollout };
  await vscode.lm.invokeTool('open_in_viewer', { input: { run: root, ...at, turn: 0 }, toolInvocationToken: undefined });
  const shown = await until(() => {
    const s = api.browserSelection(root);
    return s && s.iteration === at.iteration && s.group === at.group && s.rollout === at.rollout ? s : undefined;
  }, 'the browser at the trajectory');
  check(shown !== undefined, `open_in_viewer opened the browser at iteration ${at.iteration}, group ${at.group}, rollout ${at.rollout}`);
}
