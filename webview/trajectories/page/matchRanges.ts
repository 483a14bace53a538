/** Where a searched text is in a string, without the DOM (textMarks.ts marks it in the page). */

/** The places of `needle` in `text`, ignoring case as the host's search does, in order and apart. */
export function matchRanges(text: string, needle: string): [number, number][] {
  if (needle.length === 0) return [];
  const re = new RegExp(needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'giu');
  const out: [number, number][] = [];
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[0].length === 0) break;
    out.push([m.index, m.index + m[0].length]);
  }
  return out;
}
