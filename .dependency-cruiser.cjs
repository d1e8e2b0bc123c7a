// The layer rules (DESIGN §1, STYLE.md "Layers a check enforces"), run by `npm test`. A rule that fails is
// a design question, not a line to silence.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'Modules never import each other in a circle (type-only imports aside).',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'renderer-and-shared-never-import-electron',
      comment: 'The renderer sees shared/ only; shared/ is pure and importable everywhere.',
      severity: 'error',
      from: { path: '^(renderer|shared)/' },
      to: { path: '^electron/' },
    },
    {
      name: 'shared-never-imports-renderer',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: '^renderer/' },
    },
    {
      name: 'domain-never-imports-bridge',
      comment:
        'Domain code throws its own typed errors; only the bridge maps them (electron/bridge/errors.ts).',
      severity: 'error',
      from: { path: '^electron/(ai|mail|documents|db|secrets|files|mcp)/' },
      to: { path: '^electron/bridge/' },
    },
    {
      name: 'providers-import-only-the-protocol',
      comment: 'Only providers/ know wire shapes, and they know nothing but the neutral protocol.',
      severity: 'error',
      from: { path: '^electron/ai/providers/' },
      to: {
        path: '^electron/',
        pathNot: ['^electron/ai/providers/', '^electron/ai/protocol/'],
      },
    },
    {
      name: 'electron-only-in-the-shell',
      comment: 'The Electron binary cannot run here: only the thin shell files may import it.',
      severity: 'error',
      from: { pathNot: '^electron/(main|preload|secrets/safe-storage)\\.ts$' },
      to: { path: '^electron$', dependencyTypes: ['npm', 'npm-dev', 'core', 'unknown', 'undetermined'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^(electron|renderer|shared|bench|scripts|test|fixtures|bin)/',
    tsPreCompilationDeps: true,
    // TypeScript 7 (the project's compiler) has no JavaScript API yet; swc parses the sources instead.
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.node.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
