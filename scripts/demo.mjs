// `npm start`: the product on its embedded demo run, offline. Builds and packages the
// extension, writes the demo run into .demo/, serves its fake Hub repo with the
// emulator, installs code-server (once per machine) on first use, and opens it with the demo
// run as the workspace. Ctrl-C stops everything. `npm start -- --grow [S]` also writes a run that
// trains, .demo/run/live (one more iteration every S seconds, 20 unless given), served as a second
// Hub repo too: follow it (RL Runs: Follow Run While It Trains) and watch it grow.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { installCodeServer, startCodeServer, stopCodeServer } from './codeServer.mjs';

const PORT = Number(process.env.RLRB_PORT ?? 8080);
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

export async function prepareDemo({ fresh = false } = {}) {
  run('npm', ['run', '--silent', 'package']);
  const demo = resolve('.demo', 'run');
  if (fresh) rmSync(resolve('.demo'), { recursive: true, force: true });
  if (!existsSync(join(demo, 'logs', 'ws_credit_log.jsonl'))) run('node', ['dist/cli.js', 'demo', demo]);
  mkdirSync(resolve('.demo', 'downloads'), { recursive: true });
  return { demo, vsix: resolve('dist', 'rl-run-browser.vsix') };
}

export async function startEmulator(repoDir, extraArgs = []) {
  const emu = spawn('node', ['dist/emulator.js', '--repo', `XunmeiLiu/openwebrl-ws-credit-beta0.4=${repoDir}`, ...extraArgs], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((res, rej) => {
    emu.on('exit', (c) => rej(new Error(`the Hub emulator exited with ${c}`)));
    emu.stdout.on('data', (c) => {
      const m = /(http:\/\/127\.0\.0\.1:\d+)/.exec(c.toString());
      if (m) res(m[1]);
    });
  });
  return { emu, url };
}

const LIVE_REPO = 'XunmeiLiu/openwebrl-live-demo';

/** `--grow [S]` on the command line: the seconds between two iterations of the growing run, or undefined. */
function growSeconds() {
  const i = process.argv.indexOf('--grow');
  if (i < 0) return undefined;
  const s = Number(process.argv[i + 1] ?? 20);
  return Number.isFinite(s) && s >= 1 ? s : 20;
}

/** `rlrb demo --grow` into `dir`; each step it prints, the emulator is asked to take the new files in as a commit. */
function startGrowing(dir, seconds, emuUrl) {
  const child = spawn('node', ['dist/cli.js', 'demo', dir, '--grow', String(seconds)], { stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout.on('data', (c) => {
    process.stdout.write(`grow: ${c}`);
    void fetch(`${emuUrl}/__emulator/rescan`, { method: 'POST' }).catch(() => undefined);
  });
  return child;
}

async function main() {
  const { demo, vsix } = await prepareDemo();
  const grow = growSeconds();
  const live = join(demo, 'live');
  if (grow !== undefined) mkdirSync(live, { recursive: true });
  const { emu, url } = await startEmulator(join(demo, '.hub-repo'), grow !== undefined ? ['--repo', `${LIVE_REPO}=${live}`] : []);
  const grower = grow !== undefined ? startGrowing(live, grow, url) : undefined;
  installCodeServer();
  const state = resolve('.cache', 'demo-user');
  const cs = await startCodeServer({
    port: PORT,
    userData: join(state, 'data'),
    extensionsDir: join(state, 'extensions'),
    folder: demo,
    vsix,
    stdio: 'inherit',
    settings: {
      'rlRunBrowser.endpoint': url,
      'rlRunBrowser.repos': ['XunmeiLiu/openwebrl-ws-credit-beta0.4', ...(grow !== undefined ? [LIVE_REPO] : [])],
      'rlRunBrowser.downloadDestination': resolve('.demo', 'downloads'),
      // the product as a new user meets it: the walkthrough beside the runs on the first start
      'rlRunBrowser.walkthrough.openOnFirstRun': true,
      'workbench.welcomePage.walkthroughs.openOnInstall': true,
      // the report and the Hub tree state the verdict against the demo's plain GRPO run
      'rlRunBrowser.baseline': join(demo, 'baseline'),
    },
  });
  console.log(
    `\nRL Run Browser demo: open http://127.0.0.1:${PORT}/?folder=${encodeURIComponent(demo)}\n` +
      `(Hub emulator at ${url}; Ctrl-C stops everything)\n`,
  );
  const stop = () => {
    grower?.kill();
    stopCodeServer(cs);
    emu.kill();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (resolve(process.argv[1] ?? '') === resolve('scripts/demo.mjs'))
  main().catch((e) => {
    console.error(`demo: ${e.message}`);
    process.exit(1);
  });
