/**
 * The language model tool `open_in_viewer`: an agent shows the user what it found, the panels
 * opened at that place by the extension's link service (src/extension/share/openLink.ts), after
 * the user confirms.
 */
import * as vscode from 'vscode';
import { isAbsolute, resolve } from 'node:path';
import { LinkError } from '../../core/links/link';
import { errorMessage } from '../../core/errorMessage';
import type { Services } from '../services';
import { openRunLink } from '../share/openLink';
import { placeText, viewerInput, viewerLink } from './viewerPlace';

export const OPEN_IN_VIEWER = 'open_in_viewer';

/** A relative run path against the first workspace folder. */
function resolvePath(p: string): string {
  const base = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  return isAbsolute(p) || base === undefined ? resolve(p) : resolve(base, p);
}

const text = (t: string): vscode.LanguageModelToolResult => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(t)]);

export function openInViewerTool(s: Services, enabled: () => boolean): vscode.LanguageModelTool<unknown> {
  return {
    prepareInvocation(options) {
      const i = viewerInput(options.input);
      const where = typeof i === 'string' ? 'a place in a run' : placeText(i);
      return {
        invocationMessage: `Opening ${where} in RL Run Browser`,
        confirmationMessages: {
          title: 'Open in RL Run Browser',
          message: new vscode.MarkdownString().appendText(`Open ${where} in the RL Run Browser panels?`),
        },
      };
    },
    async invoke(options) {
      if (!enabled()) throw new Error('RL Run Browser agent tools are turned off (rlRunBrowser.agentTools.enabled)');
      const i = viewerInput(options.input);
      if (typeof i === 'string') throw new Error(i);
      const link = viewerLink(i, resolvePath);
      if (typeof link === 'string') throw new Error(link);
      try {
        await openRunLink(s, link);
      } catch (e) {
        throw new Error(e instanceof LinkError ? e.message : `cannot open it: ${errorMessage(e)}`);
      }
      s.out.info(`agent tools: opened ${placeText(i)}`);
      return text(`Opened ${placeText(i)} in RL Run Browser.`);
    },
  };
}
