/** Debian packages as the corpus scripts read them: locale directory labels, fetching a package unpacked, its gettext catalogs. */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { readMo } from './mo.js'

/** The corpus label of a locale directory name ("pt_BR" -> "pt", "sr@latin" -> "sr-Latn"), or undefined to skip it. */
export function labelOf (locale: string): string | undefined {
  const name = locale.replace(/\.[\w-]+(?=@|$)/, '')
  const special: Record<string, string> = {
    C: 'en', 'sr@latin': 'sr-Latn', 'sr@Latn': 'sr-Latn', zh_CN: 'zh', zh_SG: 'zh', zh: 'zh', zh_TW: 'zh-Hant', zh_HK: 'zh-Hant', no: 'nb', nb_NO: 'nb'
  }
  if (special[name] !== undefined) return special[name]
  // other script/variant modifiers (ca@valencia, be@latin, sr@ijekavian...) are not one language label
  if (name.includes('@') || name.startsWith('en')) return undefined
  const match = /^([a-z]{2,3})(?:_[A-Z]{2})?$/.exec(name)
  return match?.[1]
}

/** Fetches a package with `apt-get download` into the cache and unpacks it with `dpkg-deb -x` (nothing is installed); its root. */
export function unpack (pkg: string, cache: string): string {
  const root = join(cache, 'unpacked', pkg)
  if (existsSync(root)) return root
  const debs = join(cache, 'debs')
  mkdirSync(debs, { recursive: true })
  const before = new Set(readdirSync(debs))
  execFileSync('apt-get', ['download', '-q', pkg], { cwd: debs, stdio: ['ignore', 'ignore', 'inherit'] })
  const deb = readdirSync(debs).find(f => !before.has(f) && f.startsWith(`${pkg}_`)) ??
    readdirSync(debs).find(f => f.startsWith(`${pkg}_`))
  if (deb === undefined) throw new Error(`apt-get download ${pkg} left no .deb`)
  mkdirSync(root, { recursive: true })
  execFileSync('dpkg-deb', ['-x', join(debs, deb), root])
  return root
}

/** A directory's entries, none when it is missing. */
export function listDir (dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir) : []
}

/** The files under `dir`, at any depth, whose names end with `suffix`. */
export function filesUnder (dir: string, suffix: string): string[] {
  return listDir(dir).flatMap(name => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path, suffix) : name.endsWith(suffix) ? [path] : []
  })
}

/**
 * The entries of the gettext catalogs under `dir` (`<locale>/LC_MESSAGES/*.mo`) with their locale's
 * label; translators' credits are left out (names of people, not text in the language).
 */
export function * catalogEntries (dir: string, label: (locale: string) => string | undefined = labelOf): Generator<{ lang: string, source: string, translation: string }> {
  for (const locale of listDir(dir)) {
    const lang = label(locale)
    if (lang === undefined) continue
    for (const file of filesUnder(join(dir, locale, 'LC_MESSAGES'), '.mo')) {
      for (const entry of readMo(readFileSync(file))) {
        if (/translator|credits/i.test(entry.source)) continue
        yield { lang, source: entry.source, translation: entry.translation }
      }
    }
  }
}
