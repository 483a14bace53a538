/**
 * Text for notifications. VS Code turns `[label](command:…)` (and http/file links) in a
 * notification into a clickable link, and `$(name)` into an icon; a Hub error, a file or
 * repo name or a line of a log must show as the characters it is, never as either.
 */

// C0/C1 controls (line breaks included: a notification is one line) and the bidi controls that reorder what is shown
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Neutralises link, icon and tag syntax and control characters; the rest is kept as it is. */
export function escapeNotification(text: string): string {
  return text
    .replace(CONTROLS, ' ')
    .replace(/\]\s*\(/g, '] (')
    .replace(/\$\(/g, '$ (')
    .replace(/</g, '‹')
    .replace(/>/g, '›');
}
