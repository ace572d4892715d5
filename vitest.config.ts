import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // engine pipelines and real servers: keep files in separate processes, two at a time (2 cores)
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'suite', include: ['test/**/*.test.ts'], exclude: ['test/load/**'] }
      },
      {
        // tests that measure latency under load run after the rest, one file at a time, so that
        // no other test file takes the cores they measure
        extends: true,
        test: { name: 'load', include: ['test/load/**/*.test.ts'], fileParallelism: false, sequence: { groupOrder: 1 } }
      }
    ]
  }
})
