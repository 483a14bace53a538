/** The `npx rlrb download …` line copied for a terminal, quoted so that a POSIX shell runs nothing from it. */

/** One word for a POSIX shell: in single quotes, where nothing expands; a quote itself as `'\''`. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export interface DownloadCommandSpec {
  repo: string;
  kind: 'resume' | 'hf' | 'logs';
  iteration?: number | 'latest';
  dest: string;
  endpoint?: string | undefined;
}

/** Every value is quoted (the repo, the kind, the iteration, the destination, the endpoint); the flags are ours. */
export function downloadCommandLine(c: DownloadCommandSpec): string {
  const words = ['npx', 'rlrb', 'download', shellQuote(c.repo), '--kind', shellQuote(c.kind)];
  if (c.iteration !== undefined) words.push('--iteration', shellQuote(String(c.iteration)));
  words.push('--dest', shellQuote(c.dest));
  if (c.endpoint) words.push('--endpoint', shellQuote(c.endpoint));
  return words.join(' ');
}
