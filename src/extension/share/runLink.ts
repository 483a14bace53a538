/**
 * The one place a link to a run is built: every Copy Link (trajectory, turn, run, chart,
 * comparison) names its run through `runRefOf` (a Hub repo at the commit read, or a path)
 * and uses the scheme of the editor it is copied in (`vscode.env.uriScheme`), since an
 * editor routes to extensions only the links of its own scheme.
 */
import { EXTENSION_ID, buildLink } from '../../core/links/link';
import type { LinkView } from '../../core/links/link';
import { runRefOf } from './runOrigin';

/** The link to `view` of the run at `root`; throws LinkError for what a link cannot name. */
export function runLink(root: string, view: LinkView, scheme: string): string {
  return buildLink({ run: runRefOf(root), view }, EXTENSION_ID, scheme);
}
