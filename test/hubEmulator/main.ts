/** `npm run emulator -- [--repo ID=FOLDER] [--port N] [--token T]`: starts the Hub emulator and prints its URL. */
import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { startHubEmulator } from './server';
import { DEMO_REPO, writeDemo } from '../../src/core/demo/demo';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const repos: Record<string, string> = {};
  let port = 0;
  let token: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--repo') {
      const [id, dir] = args[++i]!.split('=');
      repos[id!] = resolve(dir!);
    } else if (a === '--port') port = Number(args[++i]);
    else if (a === '--token') token = args[++i];
    else {
      console.error(`unknown argument ${a}`);
      process.exit(2);
    }
  }
  if (Object.keys(repos).length === 0) {
    const dir = resolve('.demo/run');
    if (!existsSync(resolve(dir, '.hub-repo'))) writeDemo(dir);
    repos[DEMO_REPO] = resolve(dir, '.hub-repo');
  }
  const emu = await startHubEmulator({
    repos,
    port,
    ...(token ? { requiredToken: token } : {}),
    validTokens: ['hf_demo_token_for_the_emulator'],
  });
  console.log(`Hub emulator: ${emu.url} (CDN ${emu.cdnUrl})`);
  for (const [id, dir] of Object.entries(repos)) console.log(`  ${id} <- ${dir}`);
  const stop = (): void => {
    void emu.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
