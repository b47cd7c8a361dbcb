// @ts-check
// The architecture as checks (`npm run lint:deps`, part of `npm run lint`): no import cycles in src,
// src/core never imports vscode, and each layer of src/core imports only the layers below it
// (docs/architecture.md): base < secrets < transport < config < documents < chain < health < contracts
// (ABIs and decoding) < the feature folders, ordered among themselves (events < queries < explorer), then monitor (the exporter: health and queries) < src/ui and src/extension.ts.
// Today no feature folder imports another; the order says which way a future import may run
// (a query file may watch events; a Look Up may run a query), so none can start a cycle.
'use strict';

const LAYERS = ['base', 'secrets', 'transport', 'config', 'documents', 'chain', 'health', 'contracts', 'events', 'queries', 'explorer', 'monitor'];

/** One rule per layer: it may not import a layer above it. */
const layerRules = LAYERS.map((layer, i) => ({
  name: `layer-${layer}`,
  comment: `src/core/${layer} imports only ${LAYERS.slice(0, i).join(', ') || 'nothing of core'} (and itself)`,
  severity: 'error',
  from: { path: `^src/core/${layer}/` },
  to: { path: `^src/core/(${LAYERS.slice(i + 1).join('|') || '$^'})/|^src/(ui|extension|api)` },
}));

module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', from: { path: '^src/' }, to: { circular: true } },
    {
      name: 'core-without-vscode',
      comment: 'src/core runs in plain Node (tests, the CLI)',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^vscode$', dependencyTypes: ['core', 'npm-no-pkg', 'unknown', 'undetermined'] },
    },
    { name: 'core-not-ui', severity: 'error', from: { path: '^src/core/' }, to: { path: '^src/(ui|extension)' } },
    ...layerRules,
    // src/ui by feature (docs/architecture.md, "The ui by feature"): each src/ui/<feature>/ has a
    // register.ts that activation runs (only src/extension.ts imports it) and an index.ts that only
    // src/ui/base/load.ts imports, dynamically: what the feature loads on first use.
    {
      name: 'ui-register-from-extension',
      comment: "a feature's register.ts runs at activation, called by src/extension.ts only",
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/extension\\.ts$' },
      to: { path: '^src/ui/[^/]+/register\\.ts$' },
    },
    {
      name: 'ui-feature-entry-lazy',
      comment: "a feature's index.ts is loaded on first use, through src/ui/base/load.ts's import() only",
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/ui/[^/]+/index\\.ts$', dependencyTypesNot: ['dynamic-import'] },
    },
    {
      name: 'ui-base-below-features',
      comment: 'src/ui/base is what every feature uses: it imports a feature only as a type, or dynamically (load.ts)',
      severity: 'error',
      from: { path: '^src/ui/base/' },
      to: { path: '^src/ui/(?!base/)', dependencyTypesNot: ['type-only', 'dynamic-import'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(out|dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
