// `npm test`: the suite, then the load tests (vitest.load.config.ts), then one closing line that
// counts both runs ("N passed, N failed, N skipped"; a file that failed outside its tests counts
// as one failed), which is what CI reads. Exits non-zero
// when either run failed or ran no test.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'

const dir = 'test-results'
const runs = [
  { name: 'suite', args: [], report: join(dir, 'suite.json') },
  { name: 'load', args: ['--config', 'vitest.load.config.ts'], report: join(dir, 'load.json') }
]
// arguments (test file filters) go to both runs; a run that has none of those files passes
const extra = process.argv.slice(2)
if (extra.length > 0) extra.push('--passWithNoTests')

mkdirSync(dir, { recursive: true })
let ok = true
const total = { passed: 0, failed: 0, skipped: 0 }
for (const run of runs) {
  rmSync(run.report, { force: true })
  const result = spawnSync(
    'npx',
    ['vitest', 'run', ...run.args, '--reporter=default', '--reporter=json', `--outputFile.json=${run.report}`, ...extra],
    { stdio: 'inherit' }
  )
  if (result.status !== 0) ok = false
  if (!existsSync(run.report)) {
    console.error(`the ${run.name} run wrote no report (${run.report})`)
    ok = false
    break
  }
  const report = JSON.parse(readFileSync(run.report, 'utf8'))
  total.passed += report.numPassedTests
  // a file that failed outside its tests (an import, a hook) counts as one failure, named here
  const failedFiles = report.testResults.filter(file => file.status === 'failed' && !file.assertionResults.some(test => test.status === 'failed'))
  for (const file of failedFiles) console.error(`failed outside its tests: ${file.name}: ${String(file.message ?? '').split('\n')[0]}`)
  total.failed += report.numFailedTests + failedFiles.length
  total.skipped += report.numPendingTests + report.numTodoTests
  // a failed suite stops here, as `a && b` would
  if (!ok) break
}
if (total.passed + total.failed === 0) ok = false
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`)
process.exit(ok ? 0 : 1)
