/**
 * The clients the shard benchmark times, each in its own process as a user runs it: curl, the
 * `rlrb download` command (the built CLI), huggingface_hub's `hf download` when it is installed,
 * and a process that keeps one core busy meanwhile.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Runs a command to its end; rejects with its last stderr lines when it fails. */
export function runProcess(cmd: string, args: string[], env: Record<string, string> = {}): Promise<void> {
  return new Promise<void>((res, rej) => {
    const c = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
    let err = '';
    c.stderr.on('data', (b: Buffer) => (err = (err + b.toString()).slice(-2000)));
    c.on('error', rej);
    c.on('close', (code) => (code === 0 ? res() : rej(new Error(`${cmd} ${args.join(' ')}: exit ${code}: ${err}`))));
  });
}

/** `rlrb download` of the repo's resume iteration 1 into `dest`, its manifest under `state` (`concurrency`: the flag). */
export function rlrbDownload(endpoint: string, repo: string, dest: string, state: string, concurrency?: number): Promise<void> {
  const args = [resolve('dist/cli.js'), 'download', repo, '--kind', 'resume', '--iteration', '1', '--dest', dest];
  args.push('--endpoint', endpoint, ...(concurrency !== undefined ? ['--concurrency', String(concurrency)] : []));
  return runProcess('node', args, { XDG_STATE_HOME: state });
}

/**
 * huggingface_hub's CLI: the one in the virtual environment `npm run setup` makes (the version
 * the conformance test pins), else `hf` on the PATH; undefined when neither is there.
 */
export function hfCli(): string | undefined {
  const version = readFileSync(resolve('scripts/hf-hub-version.txt'), 'utf8').trim();
  const venv = join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'rl-run-browser', `venv-hf-${version}`);
  if (existsSync(join(venv, 'bin', 'hf'))) return join(venv, 'bin', 'hf');
  for (const d of (process.env['PATH'] ?? '').split(':')) if (d && existsSync(join(d, 'hf'))) return join(d, 'hf');
  return undefined;
}

/** `hf download` of one file of the repo into `dest`, its cache under `home`. */
export function hfDownload(hf: string, endpoint: string, repo: string, path: string, dest: string, home: string): Promise<void> {
  return runProcess(hf, ['download', repo, path, '--local-dir', dest], {
    HF_ENDPOINT: endpoint,
    HF_HOME: home,
    HF_HUB_DISABLE_TELEMETRY: '1',
    HF_HUB_DISABLE_PROGRESS_BARS: '1',
  });
}

/** A process that spins on one core until it is stopped (`stop` resolves once it is gone). */
export function busyCore(): { stop: () => Promise<void> } {
  const c: ChildProcess = spawn('node', ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  return {
    stop: () =>
      new Promise<void>((r) => {
        if (c.exitCode !== null || c.signalCode !== null) return r();
        c.once('close', () => r());
        c.kill();
      }),
  };
}
