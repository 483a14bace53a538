/** The message of anything thrown: an Error's message, else its string form. */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  return typeof e === 'string' ? e : String(e);
}

/** The errno code of a Node system error (`ENOENT`, `EACCES`, …), if it has one. */
export function errorCode(e: unknown): string | undefined {
  if (typeof e !== 'object' || e === null || !('code' in e)) return undefined;
  const code = e.code;
  return typeof code === 'string' ? code : undefined;
}

/** "cannot read X: CODE" style detail: the errno code where there is one, else the message. */
export function errorDetail(e: unknown): string {
  return errorCode(e) ?? errorMessage(e);
}
