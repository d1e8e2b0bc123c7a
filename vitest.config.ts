import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'electron/**/*.test.ts',
      'shared/**/*.test.ts',
      'fixtures/**/*.test.ts',
      'renderer/**/*.test.ts',
      'test/**/*.test.ts',
      'bench/**/*.test.ts',
    ],
    environment: 'node',
    // Imports start worker threads and the end-to-end suite drives a browser; on a busy 2-core machine
    // what is polled for can take seconds: a background sync's first round (a worker thread, its parse threads,
    // a login) took 15 s against a local Dovecot with the two cores shared by eight busy loops. Generous waits
    // for a condition, never a timing assertion. A poll needs no tighter cap of its own: these say in one place
    // how slow a loaded machine may be, and a test's timeout leaves room for several polls in a row.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    expect: { poll: { timeout: 30_000 } },
    // Imports spawn worker threads and the end-to-end suite a browser: keep the 2-core machine calm.
    maxWorkers: 2,
  },
});
