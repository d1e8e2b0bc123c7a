// The layer rules (DESIGN §1, STYLE.md "Layers a check enforces"), run by `npm test`. A rule that fails is
// a design question, not a line to silence.
// The main process's layers, lowest first (issue 30, DESIGN §1). A module may import its own layer and those
// below it, never one above: storage and pure helpers know no mail, the mail knows no assistant, the assistant
// no reads thread or MCP server, those no bridge, the bridge not the composition root, and only the entry
// points (the CLI, the browser mode, the Electron shell) build the app. Tests sit outside the layers.
const layers = [
  [
    'db',
    'secrets',
    'files',
    'log\\.ts',
    'domain-error\\.ts',
    'text',
    'data-dir\\.ts',
    'data-folder\\.ts',
    'external-url\\.ts',
    'csp\\.ts',
    'window-policy\\.ts',
    'app-protocol\\.ts',
    'preload-api\\.ts',
    'worker-calls\\.ts',
    'extra-ca\\.ts',
  ],
  ['mail', 'documents'],
  ['ai', 'thread-errors\\.ts'],
  ['reads', 'mcp'],
  ['bridge'],
  ['app\\.ts', 'search-reader\\.ts'],
  ['cli', 'web', 'main\\.ts', 'preload\\.ts'],
];
const layerPath = (names) => `^electron/(${names.join('|')})(/|$)`;
const notTests = '\\.test\\.tsx?$';
const layerRules = layers.slice(0, -1).map((names, i) => ({
  name: `layer-${i}-never-imports-above`,
  comment: `${names.join(', ')} import nothing from a layer above them.`,
  severity: 'error',
  from: { path: layerPath(names), pathNot: notTests },
  to: { path: layerPath(layers.slice(i + 1).flat()) },
}));
// Every module of electron/ sits in one layer, so a new folder cannot slip past the rules above.
const inLayers = layerPath(layers.flat());

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'every-main-module-has-a-layer',
      comment: 'A new folder or file at the top of electron/ takes a place in the layers above.',
      severity: 'error',
      from: { path: '^electron/', pathNot: [inLayers, notTests] },
      to: {},
    },
    {
      name: 'nothing-imports-a-module-without-a-layer',
      comment: 'The same from the other side, for a new module that imports nothing itself.',
      severity: 'error',
      from: {},
      to: { path: '^electron/', pathNot: [inLayers, notTests] },
    },
    {
      name: 'only-entry-points-build-the-app',
      comment: 'app.ts is the composition root: the CLI, the browser mode and the Electron shell build it.',
      severity: 'error',
      from: { pathNot: ['^electron/(cli|web)/', '^electron/main\\.ts$', notTests, '^(test|bench|scripts)/'] },
      to: { path: '^electron/app\\.ts$' },
    },
    {
      name: 'the-mail-store-knows-no-imap',
      comment:
        "Stored mail knows nothing of IMAP, as Thunderbird's message database: the sync writes into the store.",
      severity: 'error',
      from: { path: '^electron/mail/store/', pathNot: notTests },
      to: { path: '^electron/mail/imap/' },
    },
    {
      name: 'the-renderer-imports-no-server-package',
      comment:
        'The renderer runs sandboxed in a page: no Node built-in and no package that only the main process can run.',
      severity: 'error',
      from: { path: '^renderer/', pathNot: notTests },
      to: {
        dependencyTypes: ['core', 'npm', 'npm-dev', 'npm-optional', 'npm-peer', 'unknown', 'undetermined'],
        path: '(^|/)node_modules/(better-sqlite3|imapflow|nodemailer|mailparser|@zone-eu|smtp-server|undici|oidc-provider|@modelcontextprotocol|openid-client|dependency-cruiser|vitest|playwright-core|electron)(/|$)|^(node:)?(fs|path|child_process|net|tls|http|https|os|crypto|worker_threads|stream|zlib|dns|url|util|events|buffer)$',
      },
    },
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
      to: {
        path: '^electron$|^node_modules/electron/',
        dependencyTypes: ['npm', 'npm-dev', 'core', 'unknown', 'undetermined'],
        dependencyTypesNot: ['type-only'],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // The project's modules, and the packages and Node built-ins they import (not followed), so the rules on
    // packages (electron only in the shell, no server package in the renderer) see those imports.
    includeOnly:
      '^(electron|renderer|shared|bench|scripts|test|fixtures|bin)/|^node_modules/|^(node:)?[a-z_]+$',
    tsPreCompilationDeps: true,
    // TypeScript 7 (the project's compiler) has no JavaScript API yet; swc parses the sources instead.
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.node.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
