/**
 * How the MCP server opens runs: through the CLI's `openRunWith` with the settings the CLI's
 * flags would give (`--beta`, `--tau`, `--horizon`, `--theta`, the server's `--endpoint` and
 * `--no-cache`), each opened run kept in a bounded cache (the least recently used dropped
 * first) and brought up to date on each call.
 */
import type { ParsedArgs } from '../args';
import { openRunWith, openSettings } from '../open/openRun';
import type { OpenSettings } from '../open/openRun';
import type { Run } from '../../core/run/run';
import { isHubRef } from '../../core/hub/inPlace/hubRef';
import { checkRun } from './roots';
import { Run as LocalRun } from '../../core/run/run';
import { hubLiveSource, localLiveSource } from '../../core/live/liveSource';
import type { LiveSource } from '../../core/live/liveSource';
import { openHubRun } from '../open/openHubRun';
import { resolve } from 'node:path';
import { ToolError } from './limits';

/** What the server was started with. */
export interface ServerConfig {
  /** real paths of the roots */
  roots: string[];
  /** Hub repos the user follows (`--repo`), listed by `list_runs` */
  repos?: string[];
  endpoint?: string;
  noCache?: boolean;
}

/** The index options a tool may set, as the CLI's flags of the same names. */
export interface RunOptions {
  beta?: number;
  tau?: number;
  horizon?: number;
  theta?: number;
}

/** `ParsedArgs` as the CLI's parser would give them for these flags. */
export function flagsOf(values: Readonly<Record<string, string | number | true | undefined>>): ParsedArgs {
  const flags = new Map<string, string | true>();
  for (const [k, v] of Object.entries(values)) if (v !== undefined) flags.set(k, v === true ? true : String(v));
  return { positional: [], flags, lists: new Map() };
}

/** How many opened runs a server keeps (each holds its index in memory: tens of MB for a large log). */
export const MAX_OPEN_RUNS = 8;

/**
 * Opened runs by key, at most `max`, the least recently used dropped first; one cache may serve
 * many servers (an HTTP server's requests), so a run is opened once however many requests ask.
 */
export class RunCache {
  private readonly runs = new Map<string, Promise<Run>>();

  constructor(readonly max = MAX_OPEN_RUNS) {}

  get size(): number {
    return this.runs.size;
  }

  /** The run kept for `key`, made most recently used. */
  get(key: string): Promise<Run> | undefined {
    const v = this.runs.get(key);
    if (v !== undefined) {
      this.runs.delete(key);
      this.runs.set(key, v);
    }
    return v;
  }

  /** Keeps `run` for `key`, dropping the least recently used beyond the bound (a call still using one keeps its reference). */
  set(key: string, run: Promise<Run>): void {
    this.runs.delete(key);
    this.runs.set(key, run);
    for (const k of this.runs.keys()) {
      if (this.runs.size <= this.max) break;
      this.runs.delete(k);
    }
  }

  delete(key: string, run: Promise<Run>): void {
    if (this.runs.get(key) === run) this.runs.delete(key);
  }
}

export class RunOpener {
  /** followed runs (section 10), at most MAX_OPEN_RUNS like the opened ones */
  private readonly followed = new Map<string, Promise<LiveSource>>();

  constructor(
    readonly config: ServerConfig,
    private readonly open: RunCache = new RunCache(),
  ) {}

  /** The settings of these options, as `openSettings` makes them from the CLI's flags (and checks them). */
  settings(o: RunOptions = {}, needCredit = true): OpenSettings {
    const a = flagsOf({ ...o, endpoint: this.config.endpoint, 'no-cache': this.config.noCache === true ? true : undefined });
    return { ...openSettings(a), needCredit };
  }

  /** The run `ref` names (checked against the roots), opened once per session and options, then updated. */
  async run(ref: string, o: RunOptions = {}, needCredit = true): Promise<Run> {
    const where = checkRun(ref, this.config.roots, this.config.repos);
    const key = JSON.stringify([where, o.beta, o.tau, o.horizon, o.theta, needCredit]);
    const known = this.open.get(key);
    if (known !== undefined) {
      const run = await known.catch(() => undefined);
      if (run !== undefined) {
        if (!isHubRef(where)) await run.update();
        return run;
      }
      this.open.delete(key, known);
    }
    const opening = openRunWith(where, this.settings(o, needCredit));
    this.open.set(key, opening);
    return await opening;
  }

  /** The run `ref` names as a followed run (section 10): opened once per session, its changes read at each poll. */
  liveSource(ref: string): Promise<LiveSource> {
    const where = checkRun(ref, this.config.roots);
    let got = this.followed.get(where);
    if (!got) {
      got = this.openLive(where);
      got.catch(() => this.followed.delete(where));
      this.followed.set(where, got);
      for (const k of this.followed.keys()) {
        if (this.followed.size <= MAX_OPEN_RUNS) break;
        this.followed.delete(k);
      }
    }
    return got;
  }

  private async openLive(where: string): Promise<LiveSource> {
    const s = this.settings();
    if (isHubRef(where)) {
      const { hr, conn } = await openHubRun(where, s);
      return hubLiveSource(hr, conn);
    }
    const run = await LocalRun.open(resolve(where), s.options, s.engine);
    if (!run) throw new ToolError(`${where}: no run here`);
    return localLiveSource(run, s.engine);
  }
}
