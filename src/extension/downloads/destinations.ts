/**
 * Where a repo's downloads go, in one place: the folder last chosen for that repo and
 * kind (kept in a memento), else `<base>/<owner>__<name>/<ckpt|hf|logs>` under the
 * download setting or the first workspace folder.
 */
import { join } from 'node:path';
import { iterDirName } from '../../core/hub/model';

export type DestKind = 'resume' | 'hf' | 'logs';

/** The part of a VS Code Memento the destinations use. */
export interface DestinationStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

export interface Destination {
  path: string;
  /** true when the user chose it for this repo and kind before; false for the default */
  remembered: boolean;
}

/** `<base>/<owner>__<name>/<ckpt|hf|logs>`, or undefined without a base folder. */
export function defaultDest(base: string | undefined, repo: string, kind: DestKind): string | undefined {
  if (!base) return undefined;
  return join(base, repo.replace('/', '__'), kind === 'resume' ? 'ckpt' : kind);
}

export class Destinations {
  constructor(
    private readonly store: DestinationStore,
    /** the download setting, else the first workspace folder */
    private readonly base: () => string | undefined,
  ) {}

  private static key(repo: string, kind: DestKind): string {
    return `dest:${repo}:${kind}`;
  }

  /** The remembered folder, else the default one. */
  get(repo: string, kind: DestKind): Destination | undefined {
    const kept = this.store.get<string>(Destinations.key(repo, kind));
    if (kept) return { path: kept, remembered: true };
    const d = defaultDest(this.base(), repo, kind);
    return d ? { path: d, remembered: false } : undefined;
  }

  path(repo: string, kind: DestKind): string | undefined {
    return this.get(repo, kind)?.path;
  }

  remember(repo: string, kind: DestKind, path: string): PromiseLike<void> {
    return this.store.update(Destinations.key(repo, kind), path);
  }

  /** The folder one iteration lands in (`<dest>/iter_XXXXXXX`). */
  iterationFolder(repo: string, kind: 'resume' | 'hf', iteration: number): string | undefined {
    const d = this.path(repo, kind);
    return d ? join(d, iterDirName(iteration)) : undefined;
  }

  /** Folders logs were downloaded into: they are local runs too. */
  fetchedLogs(): string[] {
    return this.store.get<string[]>('fetchedLogs') ?? [];
  }

  addFetchedLogs(path: string): PromiseLike<void> {
    return this.store.update('fetchedLogs', [...new Set([...this.fetchedLogs(), path])]);
  }

  /** The `--dest` of a command copied for a terminal: as in the editor, else `./<kind>`. */
  forCommand(repo: string, kind: DestKind): string {
    return this.path(repo, kind) ?? `./${kind}`;
  }
}
