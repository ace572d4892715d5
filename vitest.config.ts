import { defineConfig, type ViteUserConfig } from 'vitest/config'

/** What both runs share. */
export const shared: NonNullable<ViteUserConfig['test']> = {
  // the same plain report wherever it runs (vitest picks a failures-only one in some environments)
  reporters: ['default'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // engine pipelines and real servers: keep files in separate processes
  pool: 'forks'
}

/**
 * The suite. Tests that measure latency under load (test/load) have a config of their own
 * (vitest.load.config.ts) that `npm test` runs after this one, one file at a time, so that no
 * other test file takes the cores they measure. Two runs instead of vitest projects: projects
 * prefix every line of the log with their name.
 */
export default defineConfig({
  test: {
    ...shared,
    include: ['test/**/*.test.ts'],
    exclude: ['test/load/**', '**/node_modules/**'],
    // two files at a time (2 cores)
    maxWorkers: 2
  }
})
