import { test } from 'node:test';
import assert from 'node:assert/strict';
import { conclusionClass, conclusionColour } from '../../webview/compare/verdictLook';

test('the page colours a shown difference green or red and an inconclusive one (or none) neutral, from theme variables', () => {
  assert.equal(conclusionColour('better').variable, '--vscode-charts-green');
  assert.equal(conclusionColour('worse').variable, '--vscode-charts-red');
  assert.equal(conclusionColour('inconclusive').variable, '--vscode-descriptionForeground');
  assert.equal(conclusionColour(null).variable, '--vscode-descriptionForeground');
  assert.deepEqual((['better', 'worse', 'inconclusive', null] as const).map(conclusionClass), [
    'verdict-better',
    'verdict-worse',
    'verdict-inconclusive',
    'verdict-none',
  ]);
});
