/**
 * The choices of a comparison side (pure; no vscode): the local runs, and the followed Hub repos whose
 * logs can be fetched now. A repo whose last listing failed (the Hub unreachable, a bad token) is not
 * offered as a choice that could only fail; one line says it is left out and why.
 */

export interface SideChoice {
  label: string;
  description: string;
  /** a local run's root, or a Hub repo to download the logs of; neither: a line that is not a choice */
  root?: string;
  repo?: string;
}

export function sideChoices(
  runs: readonly { name: string; root: string }[],
  repos: readonly string[],
  hubError: (repo: string) => string | undefined,
  except?: string,
): SideChoice[] {
  const out: SideChoice[] = runs
    .filter((r) => r.root !== except)
    .map((r) => ({ label: `$(graph-line) ${r.name}`, description: r.root, root: r.root }));
  const down = repos.filter((r) => hubError(r) !== undefined);
  for (const repo of repos)
    if (!down.includes(repo)) out.push({ label: `$(cloud) ${repo}`, description: 'Hub: download its logs, then compare', repo });
  if (down.length > 0)
    out.push({
      label: `Not reachable now: ${down.join(', ')}`,
      description: 'listing it failed just now; the Hub view says why',
    });
  return out;
}

/**
 * The quick pick of a side: its rows (the choices) and its title (the line saying which repos are left
 * out, if any). The line goes to the title: a separator ending a quick pick's list is never drawn.
 */
export function sidePick(choices: readonly SideChoice[]): { rows: SideChoice[]; title: string | undefined } {
  const line = choices.find((c) => c.root === undefined && c.repo === undefined);
  return { rows: choices.filter((c) => c !== line), title: line ? `${line.label} (${line.description})` : undefined };
}
