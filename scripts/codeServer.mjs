// code-server from npm, pinned, in a folder of its own outside the checkout, keyed by its
// version (never a dependency of the extension): one install per machine, shared by every
// clone, CI's fresh one included. RLRB_CODE_SERVER_HOME moves it. `node scripts/codeServer.mjs install` installs it with
// the workarounds of the e2e notes; the other scripts import `codeServerBin` and `startCodeServer`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync, copyFileSync, chmodSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export const CODE_SERVER_VERSION = '4.100.3';
const HOME = process.env.RLRB_CODE_SERVER_HOME || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'rl-run-browser');
export const CODE_SERVER_ROOT = join(HOME, `code-server-${CODE_SERVER_VERSION}`);
const ROOT = CODE_SERVER_ROOT;
export const codeServerBin = join(ROOT, 'node_modules', '.bin', 'code-server');
const RG_VERSIONS = ['1.15.9', '1.15.10', '1.15.11', '1.15.13', '1.15.14', '1.17.0', '1.17.1', '1.18.0'];

export function installCodeServer() {
  if (existsSync(codeServerBin)) return;
  const rg = spawnSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).stdout.trim();
  if (!rg) fail('ripgrep (rg) is missing: apt-get install ripgrep (npm run setup does it)');
  // @vscode/ripgrep downloads rg from GitHub; a tarball of Debian's rg in its cache satisfies it
  const tmp = join(HOME, 'tmp');
  mkdirSync(tmp, { recursive: true });
  const stage = join(tmp, 'rg-stage');
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(join(stage, 'bin'), { recursive: true });
  copyFileSync(rg, join(stage, 'bin', 'rg'));
  chmodSync(join(stage, 'bin', 'rg'), 0o755);
  for (const v of RG_VERSIONS) {
    const dir = join(tmp, `vscode-ripgrep-cache-${v}`);
    mkdirSync(dir, { recursive: true });
    for (const arch of ['x86_64-unknown-linux-musl', 'aarch64-unknown-linux-musl']) {
      spawnSync('tar', ['-czf', join(dir, `ripgrep-v13.0.0-10-${arch}.tar.gz`), '-C', join(stage, 'bin'), 'rg'], { stdio: 'inherit' });
    }
  }
  mkdirSync(ROOT, { recursive: true });
  writeFileSync(join(ROOT, 'package.json'), JSON.stringify({ name: 'rlrb-code-server', private: true }));
  console.log(`installing code-server ${CODE_SERVER_VERSION} into ${ROOT} (about a minute and a half, once)`);
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', `code-server@${CODE_SERVER_VERSION}`], {
    cwd: ROOT,
    stdio: 'inherit',
    env: {
      ...process.env,
      TMPDIR: tmp,
      npm_config_unsafe_perm: 'true',
      npm_config_yes: 'true',
      npm_config_foreground_scripts: 'true',
      // argon2's node-pre-gyp would first fetch a prebuilt binary from GitHub, which fails here
      // (printing `node-pre-gyp ERR!`) before it builds from source: build from source at once
      npm_config_build_from_source: 'argon2',
    },
  });
  if (r.status !== 0 || !existsSync(codeServerBin))
    fail('installing code-server failed (see above); it needs libkrb5-dev, ripgrep and g++ (npm run setup installs them)');
}

function fail(msg) {
  console.error(`code-server: ${msg}`);
  process.exit(1);
}

/** Ends a code-server started by startCodeServer and every process it forked. */
export function stopCodeServer(proc) {
  try {
    process.kill(-proc.pid, 'SIGTERM');
  } catch {
    /* gone already */
  }
}

/**
 * Writes code-server's user settings: quiet defaults for a test or a benchmark, then `settings`.
 * @param {string} userData
 * @param {object} [settings]
 */
export function writeUserSettings(userData, settings) {
  mkdirSync(join(userData, 'User'), { recursive: true });
  writeFileSync(
    join(userData, 'User', 'settings.json'),
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        // the extension opens its walkthrough on its first activation unless this is off (an
        // application setting: read in code-server's remote window, where the workbench's own
        // workbench.welcomePage.walkthroughs.openOnInstall, machine-scoped, is not read from here)
        'rlRunBrowser.walkthrough.openOnFirstRun': false,
        'workbench.welcomePage.walkthroughs.openOnInstall': false,
        'telemetry.telemetryLevel': 'off',
        'update.mode': 'none',
        'extensions.autoUpdate': false,
        'extensions.autoCheckUpdates': false,
        'workbench.tips.enabled': false,
        'security.workspace.trust.enabled': false,
        'window.commandCenter': false,
        'git.openRepositoryInParentFolders': 'never',
        // nothing redrawn while a test waits: two workbenches share two cores
        'editor.cursorBlinking': 'solid',
        'workbench.reduceMotion': 'on',
        ...settings,
      },
      null,
      2,
    ),
  );
}

/** Starts code-server on 127.0.0.1:port with its own user data; resolves when /healthz answers. */
/**
 * @param {{ port: number, userData: string, extensionsDir: string, folder: string, settings?: object, vsix?: string,
 *   stdio?: import('node:child_process').StdioOptions }} o
 */
export async function startCodeServer({ port, userData, extensionsDir, folder, settings, vsix, stdio = 'ignore' }) {
  for (const d of [userData, extensionsDir]) mkdirSync(d, { recursive: true });
  writeUserSettings(userData, settings);
  const env = {
    ...process.env,
    XDG_CONFIG_HOME: join(userData, 'xdg-config'),
    XDG_DATA_HOME: join(userData, 'xdg-data'),
    TMPDIR: join(userData, 'tmp'),
  };
  mkdirSync(env.TMPDIR, { recursive: true });
  const common = ['--user-data-dir', userData, '--extensions-dir', extensionsDir];
  if (vsix) {
    const r = spawnSync(codeServerBin, [...common, '--install-extension', vsix, '--force'], { env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`installing ${vsix} into code-server failed: ${r.stderr || r.stdout}`);
  }
  const proc = spawn(
    codeServerBin,
    [
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--auth',
      'none',
      ...common,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      // the MCP server provider API is still a proposal in VS Code 1.100 (mcpConfigurationProvider)
      '--enable-proposed-api',
      'rl-run-browser.rl-run-browser',
      '--disable-getting-started-override',
      '--ignore-last-opened',
      folder,
    ],
    // its own process group: stopCodeServer ends the server and the extension host and
    // file watcher it forks (killing the server alone leaves them running)
    { env, stdio, detached: true },
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`code-server exited with ${proc.exitCode}`);
    try {
      const r = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (r.ok) break;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) {
      stopCodeServer(proc);
      throw new Error('code-server did not start within 60 s');
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return proc;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve('scripts/codeServer.mjs') && process.argv[2] === 'install') installCodeServer();
