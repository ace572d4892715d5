/**
 * Reads the installed Apertium modes (`<dir>/*.mode`), keeps the ones that can run here and
 * names their languages in BCP 47. A mode is broken when a file or command its pipeline
 * references is missing (Debian 12: `es-eo`, `ca-eo`, the `*-latin1`, `*-bytecode` and `-j`
 * modes), and left out when its name is not `<language>-<language>` (`eco-es-fr`,
 * `eo-en-compounds`, `Cyrl-Latn`) or carries a variant BCP 47 cannot name (`_iec2017`,
 * `_valencia_uni`, `_pre2017`, `_PTpre1990`).
 */
import { access, readdir, readFile } from 'node:fs/promises'
import { constants } from 'node:fs'
import { delimiter, join } from 'node:path'
import { sourceTagsForCode, tagForCode } from './language-tags.js'

export interface Mode {
  /** Mode name as Apertium spells it ("eng-spa", "es-pt_BR"). */
  name: string
  /** Absolute path of the .mode file. */
  file: string
  /** Source tags this mode reads (several for a macrolanguage analyser). */
  from: string[]
  /** Target tag this mode writes. */
  to: string
  /** The target came from an explicit variant (`hbs_SR`), so it wins over a plain mode naming the same tag. */
  explicitTarget: boolean
}

export interface SkippedMode {
  name: string
  reason: string
}

export interface ModeScan {
  modes: Mode[]
  skipped: SkippedMode[]
}

interface ModeName {
  fromCode: string
  fromVariant?: string
  toCode: string
  toVariant?: string
}

/** Splits a mode name into its two language codes and variants, or undefined when it has another shape. */
export function parseModeName (name: string): ModeName | undefined {
  const m = /^([a-z]{2,3})(?:_([A-Za-z0-9_]+))?-([a-z]{2,3})(?:_([A-Za-z0-9_]+))?$/.exec(name)
  if (!m) return undefined
  const parsed: ModeName = { fromCode: m[1]!, toCode: m[3]! }
  if (m[2] !== undefined) parsed.fromVariant = m[2]
  if (m[4] !== undefined) parsed.toVariant = m[4]
  return parsed
}

/** The words of each stage of a mode's shell pipeline (single/double quotes and backslashes honoured). */
export function pipelineStages (text: string): string[][] {
  const stages: string[][] = [[]]
  let word: string | undefined
  let quote: string | undefined
  const endWord = (): void => {
    if (word !== undefined) stages[stages.length - 1]!.push(word)
    word = undefined
  }
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quote !== undefined) {
      if (c === quote) quote = undefined
      else if (c === '\\' && quote === '"' && i + 1 < text.length) word += text[++i]!
      else word += c
    } else if (c === "'" || c === '"') {
      quote = c
      word ??= ''
    } else if (c === '\\' && i + 1 < text.length) {
      word = (word ?? '') + text[++i]!
    } else if (c === '|') {
      endWord()
      stages.push([])
    } else if (/\s/.test(c)) {
      endWord()
    } else {
      word = (word ?? '') + c
    }
  }
  endWord()
  return stages.filter(s => s.length > 0)
}

const commandCache = new Map<string, Promise<boolean>>()

/** Whether a command name resolves to an executable on PATH (or is an executable absolute path). */
function commandExists (command: string): Promise<boolean> {
  let known = commandCache.get(command)
  if (known === undefined) {
    const candidates = command.includes('/')
      ? [command]
      : (process.env.PATH ?? '').split(delimiter).filter(Boolean).map(dir => join(dir, command))
    known = (async () => {
      for (const candidate of candidates) {
        try {
          await access(candidate, constants.X_OK)
          return true
        } catch {}
      }
      return false
    })()
    commandCache.set(command, known)
  }
  return known
}

async function fileExists (path: string): Promise<boolean> {
  try {
    await access(path, constants.R_OK)
    return true
  } catch {
    return false
  }
}

/** What a pipeline needs that is not installed (a command or a data file), or undefined when it can run. */
export async function missingDependency (stages: string[][]): Promise<string | undefined> {
  for (const [command, ...args] of stages) {
    if (!await commandExists(command!)) return `command ${command} not found`
    for (const arg of args) {
      if (arg.startsWith('/') && !await fileExists(arg)) return `file ${arg} not found`
    }
  }
  return undefined
}

/** Checks one mode file and names its languages; a string says why it was left out. */
async function examineMode (dir: string, fileName: string): Promise<Mode | string> {
  const name = fileName.slice(0, -'.mode'.length)
  const parsed = parseModeName(name)
  if (!parsed) return 'not a <language>-<language> mode'
  const from = sourceTagsForCode(parsed.fromCode, parsed.fromVariant)
  const to = tagForCode(parsed.toCode, parsed.toVariant)
  if (from.length === 0 || to === undefined) return 'variant has no BCP 47 name'
  const file = join(dir, fileName)
  const text = await readFile(file, 'utf8')
  // $1 is the generator flag: without it unknown-word marks cannot be turned off
  if (!text.includes('$1')) return 'pipeline has no generator flag ($1)'
  const missing = await missingDependency(pipelineStages(text))
  if (missing !== undefined) return missing
  return { name, file, from, to, explicitTarget: parsed.toVariant !== undefined }
}

/** Every usable mode in `dir`, sorted by name, and the ones left out with the reason. */
export async function readModes (dir: string): Promise<ModeScan> {
  const files = (await readdir(dir)).filter(f => f.endsWith('.mode')).sort()
  const results = await Promise.all(files.map(f => examineMode(dir, f)))
  const scan: ModeScan = { modes: [], skipped: [] }
  results.forEach((result, i) => {
    if (typeof result === 'string') scan.skipped.push({ name: files[i]!.slice(0, -5), reason: result })
    else scan.modes.push(result)
  })
  return scan
}
