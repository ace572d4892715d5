import { defineConfig } from 'vitest/config'
import { shared } from './vitest.config.js'

/** Tests that measure latency under load: run after the suite (`npm test`), one file at a time. */
export default defineConfig({
  test: {
    ...shared,
    include: ['test/load/**/*.test.ts'],
    fileParallelism: false
  }
})
