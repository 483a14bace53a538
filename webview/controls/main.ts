/**
 * The `@vscode-elements/elements` controls the panels use, in their own bundle: each panel
 * loads it after its first paint (see useControls in common.ts), and the elements upgrade
 * in place, keeping the values and listeners the panel gave them.
 */
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
