import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // engine pipelines and real servers: keep files in separate processes, two at a time (2 cores)
    pool: 'forks',
    maxWorkers: 2
  }
})
