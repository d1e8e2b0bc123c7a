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
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Imports start worker threads and the end-to-end suite drives a browser; on a busy 2-core machine
    // what is polled for can take seconds. A generous wait, never a timing assertion.
    expect: { poll: { timeout: 15_000 } },
    // Imports spawn worker threads and the end-to-end suite a browser: keep the 2-core machine calm.
    maxWorkers: 2,
  },
});
