/** A Hub repo id on the command line, checked as a link's is (src/core/links): no `.` or `..` part, no `--`. */
import { repoProblem as linkRepoProblem } from '../../core/links/values';

/** Why `repo` is not a Hub repo id (one line), or undefined when it is one. */
export const repoProblem = (repo: string): string | undefined => linkRepoProblem(repo);
