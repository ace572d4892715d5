/**
 * `.env.example` and docs/configuration.md as the settings table (src/settings.ts) has them.
 * scripts/write-settings-docs.ts writes them (npm run settings); test/contract/settings.test.ts compares.
 */
import { SETTING_GROUPS, SETTINGS, type Setting } from '../src/settings.js'

const WIDTH = 82

/** The value .env.example gives: its own, else the default where it is a value (not computed). */
function exampleValue (s: Setting): string {
  if (s.example !== undefined) return s.example
  return s.default === undefined || typeof s.default === 'function' ? '' : String(s.default)
}

export function envExample (): string {
  const lines = [
    '# Copy to .env and adjust. Variables set in the environment win over this file.',
    '# Every value is checked at start; a bad one stops start-up with a message naming it.',
    '# Written by `npm run settings` from src/settings.ts; docs/configuration.md says more of each.'
  ]
  for (const group of SETTING_GROUPS) {
    const head = `# --- ${group.title} `
    lines.push('', head + '-'.repeat(Math.max(3, WIDTH - head.length)))
    for (const s of SETTINGS as readonly Setting[]) {
      if (s.group !== group.id) continue
      if (s.paragraph) lines.push('')
      if (s.comment !== undefined) lines.push(...s.comment.split('\n').map(line => `# ${line}`))
      lines.push(`${s.name}=${exampleValue(s)}`)
    }
  }
  return lines.join('\n') + '\n'
}

const number = (n: number): string => n.toLocaleString('en-US')

/** What it takes, in words. */
function values (s: Setting): string {
  if (s.values !== undefined) return s.values
  switch (s.type) {
    case 'int': return `${number(s.min)} to ${number(s.max)}`
    case 'bool': return '`true`, `false`'
    case 'choice': return s.choices.map(c => `\`${c}\``).join(', ')
    case 'url': return 'an http(s) URL'
    case 'redis-url': return 'a `redis://` or `rediss://` URL'
    case 'file': return 'a file path'
    default: return 'text'
  }
}

function defaultCell (s: Setting): string {
  if (s.defaultText !== undefined) return s.defaultText
  if (s.default === undefined || typeof s.default === 'function') return '–'
  return `\`${String(s.default)}\``
}

/** A table cell: no line breaks, pipes escaped. */
const cell = (text: string): string => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|')

export function configurationMd (): string {
  const lines = [
    '# Configuration',
    '',
    '<!-- Written by `npm run settings` from src/settings.ts: change the table there, not this file. -->',
    '',
    'The service reads its settings from environment variables, and from a `.env` file in the',
    'directory it starts in when there is one; a variable set in the environment wins over the file.',
    '[`.env.example`](../.env.example) holds every variable with its default, ready to copy to `.env`.',
    '',
    'Every value is checked at start: a bad one stops start-up with a message naming the variable',
    '(exit status 78). An empty value is the same as none. Whole numbers are written as digits alone',
    '(`1048576`); switches take `true` or `false` (also `1`/`0`, `yes`/`no`, `on`/`off`). Settings',
    'marked *secret* are keys and tokens: keep them in a Secret, not in a ConfigMap or the image',
    '([operations.md](operations.md)).',
    '',
    'A name that is no setting is told at start, as a warning that does not stop it (`WARNING: WORKER is',
    'not a setting of this service; did you mean WORKERS?`): every key of `.env` that is none, and the',
    'environment\'s variables that look like one (within two edits of a setting, or starting as settings',
    'do: `AUTH_`, `JOB_`, `REDIS_`, ...; never `PATH`, `NODE_OPTIONS` or Kubernetes\' service links). The',
    'warning names the variable, never its value.'
  ]
  for (const group of SETTING_GROUPS) {
    lines.push('', `## ${group.title}`, '', group.about, '', '| Variable | Default | Values | Meaning |', '|---|---|---|---|')
    for (const s of SETTINGS as readonly Setting[]) {
      if (s.group !== group.id) continue
      const name = `\`${s.name}\`${s.secret ? ' (*secret*)' : ''}`
      lines.push(`| ${name} | ${cell(defaultCell(s))} | ${cell(values(s))} | ${cell(s.help)} |`)
    }
  }
  return lines.join('\n') + '\n'
}
