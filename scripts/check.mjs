// The static checks with one TypeScript program per tsconfig: the compiler's diagnostics
// (incremental, its build info in .cache/tsc/), then ESLint's type-aware rules on the same
// programs (so the code is typechecked once, not again inside the linter) with ESLint's cache
// in .cache/eslint/. `--typecheck` or `--lint` alone runs only that half. The format check is
// `npm run format:check` (prettier with its cache), run beside this by scripts/test.mjs.
import { mkdirSync } from 'node:fs';
import ts from 'typescript';
import { ESLint } from 'eslint';

/** @type {import('typescript').FormatDiagnosticsHost} */
const formatHost = {
  getCanonicalFileName: (f) => f,
  getCurrentDirectory: () => process.cwd(),
  getNewLine: () => '\n',
};

const TSCONFIGS = ['tsconfig.json', 'webview/tsconfig.json', 'scripts/tsconfig.json'];
const only = process.argv.find((a) => a === '--typecheck' || a === '--lint');
mkdirSync('.cache/tsc', { recursive: true });

const t0 = Date.now();
const programs = [];
let errors = 0;
for (const config of TSCONFIGS) {
  const { program, diagnostics } = incremental(config);
  programs.push(program);
  errors += diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error).length;
  if (diagnostics.length > 0) process.stdout.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, formatHost));
}
console.log(`check: typecheck ${errors === 0 ? 'passed' : `FAILED (${errors} errors)`} (${seconds(t0)} s)`);
if (only === '--typecheck') process.exit(errors === 0 ? 0 : 1);

const t1 = Date.now();
// ESLint's cache keys its entries by the configuration as JSON: the programs stand there by their tsconfigs' names
Object.defineProperty(programs, 'toJSON', { value: () => TSCONFIGS });
const eslint = new ESLint({
  cache: true,
  cacheLocation: '.cache/eslint/',
  // a fresh clone's files are all new by their times: compare their contents
  cacheStrategy: 'content',
  // the programs above give the type-aware rules their types (`project` is then ignored)
  overrideConfig: { files: ['**/*.ts'], languageOptions: { parserOptions: { programs } } },
});
const results = await eslint.lintFiles(['.']);
const problems = results.reduce((n, r) => n + r.errorCount + r.warningCount, 0);
const text = await (await eslint.loadFormatter('stylish')).format(results);
if (text) process.stdout.write(text);
console.log(`check: lint ${problems === 0 ? 'passed' : `FAILED (${problems} problems)`} (${seconds(t1)} s)`);
process.exit(errors === 0 && problems === 0 ? 0 : 1);

/**
 * The program of one tsconfig and its diagnostics; the build info written under .cache/tsc/ lets
 * the next run re-check only the files changed since (and those that depend on them).
 */
function incremental(config) {
  const parsed = ts.getParsedCommandLineOfConfigFile(config, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.formatDiagnostic(d, formatHost));
    },
  });
  if (!parsed) throw new Error(`${config}: cannot be read`);
  const name = config.replace(/\//g, '_').replace(/\.json$/, '');
  const builder = ts.createIncrementalProgram({
    rootNames: parsed.fileNames,
    options: { ...parsed.options, incremental: true, tsBuildInfoFile: `.cache/tsc/${name}.tsbuildinfo` },
    projectReferences: parsed.projectReferences,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
  });
  const diagnostics = [
    ...builder.getConfigFileParsingDiagnostics(),
    ...builder.getOptionsDiagnostics(),
    ...builder.getGlobalDiagnostics(),
    ...builder.getSyntacticDiagnostics(),
    ...builder.getSemanticDiagnostics(),
  ];
  // with noEmit this writes the build info only
  builder.emit();
  return { program: builder.getProgram(), diagnostics };
}

function seconds(since) {
  return ((Date.now() - since) / 1000).toFixed(1);
}
