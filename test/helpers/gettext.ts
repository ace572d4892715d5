import { execFileSync } from 'node:child_process'

/** gettext's own check of a catalog (`msgfmt -c`): its errors, '' where it passes; undefined where msgfmt is not installed. */
export function msgfmtErrors (text: string): string | undefined {
  try {
    execFileSync('msgfmt', ['-c', '-o', '/dev/null', '-'], { input: text, stdio: ['pipe', 'ignore', 'pipe'] })
    return ''
  } catch (err) {
    const { code, stderr } = err as { code?: string, stderr?: Buffer }
    return code === 'ENOENT' ? undefined : String(stderr).split('\n').filter(l => !l.includes('warning:')).join('\n')
  }
}
