/** Debian packages as the corpus scripts read them: locale directory labels, and fetching a package unpacked. */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

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
