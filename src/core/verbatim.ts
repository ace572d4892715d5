/** Verbatim spans: URLs, e-mail addresses, paths, file names, code, control characters, and social posts' mentions, hashtags and emoji shortcodes, which no engine may translate or alter. */

export type VerbatimKind = 'url' | 'email' | 'path' | 'file' | 'code' | 'control' | 'mention' | 'hashtag' | 'emoji'

/** A span [start, end) of a text that must come back byte for byte. */
export interface VerbatimSpan {
  start: number
  end: number
  kind: VerbatimKind
}

// A pattern that consumes a run of characters starts with a lookbehind refusing a start inside
// such a run, so each run is tried once and matching stays linear in the text's length.

/** What never belongs to a URL or path: white space, quotes, angle brackets, an object replacement (a tag), controls. */
const NEVER = '\\s<>"`\\uFFFC\\u0000-\\u001f\\u007f'
/** A character of a URL after its start. */
const U = `[^${NEVER}]`
/** Letters and digits of any script. */
const AN = '[\\p{L}\\p{N}]'
const LABEL = `${AN}(?:[\\p{L}\\p{N}-]{0,62}${AN})?`

// Top-level domains a bare domain ("example.com") may end with: the generic ones in common use
// and the country codes seen most; lower case only, so "good.It" stays a typo in prose.
const TLDS = [
  'com', 'org', 'net', 'edu', 'gov', 'mil', 'int', 'info', 'biz', 'name', 'pro', 'io', 'ai', 'app',
  'dev', 'tech', 'online', 'site', 'xyz', 'cloud', 'blog', 'shop', 'page', 'co', 'me', 'tv', 'ly', 'gg',
  'fm', 'us', 'uk', 'eu', 'de', 'fr', 'es', 'it', 'nl', 'be', 'ch', 'at', 'se', 'no', 'dk', 'fi', 'pl',
  'pt', 'ru', 'ua', 'cz', 'gr', 'ie', 'ca', 'au', 'nz', 'jp', 'cn', 'kr', 'in', 'br', 'mx', 'ar', 'cl',
  'za', 'tr', 'il', 'cat', 'gal', 'eus'
]

// File extensions a name.ext is taken for a file name with; lower case, or upper case for the
// longer ones ("PHOTO.JPG"). One-letter ones need a stem of two characters ("p.m" is a time).
const EXTENSIONS = [
  'html', 'htm', 'xhtml', 'css', 'scss', 'sass', 'less', 'js', 'mjs', 'cjs', 'jsx', 'ts', 'tsx', 'mts',
  'cts', 'json', 'jsonl', 'yaml', 'yml', 'toml', 'xml', 'ini', 'cfg', 'conf', 'env', 'md', 'markdown',
  'rst', 'txt', 'csv', 'tsv', 'log', 'pdf', 'doc', 'docx', 'odt', 'rtf', 'xls', 'xlsx', 'ods', 'ppt',
  'pptx', 'odp', 'png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'bmp', 'ico', 'tif', 'tiff', 'heic', 'mp3',
  'wav', 'ogg', 'flac', 'm4a', 'mp4', 'm4v', 'mov', 'avi', 'mkv', 'webm', 'zip', 'tar', 'gz', 'tgz',
  'bz2', 'xz', '7z', 'rar', 'jar', 'war', 'apk', 'dmg', 'iso', 'exe', 'msi', 'dll', 'so', 'dylib', 'bin',
  'dat', 'db', 'sqlite', 'sql', 'sh', 'bash', 'zsh', 'ps1', 'bat', 'cmd', 'py', 'pyc', 'ipynb', 'rb',
  'php', 'pl', 'java', 'kt', 'kts', 'scala', 'go', 'rs', 'c', 'h', 'cc', 'cpp', 'hpp', 'cxx', 'cs',
  'swift', 'm', 'mm', 'r', 'lua', 'dart', 'vue', 'svelte', 'lock', 'pem', 'crt', 'tf', 'proto', 'wasm',
  'ttf', 'otf', 'woff', 'woff2', 'po', 'pot', 'xliff', 'xlf', 'properties', 'gradle'
]
const EXT = [...EXTENSIONS, ...EXTENSIONS.filter(e => e.length > 2).map(e => e.toUpperCase())]
  .sort((a, b) => b.length - a.length).join('|')
const DOTFILES = 'env|gitignore|gitattributes|gitmodules|editorconfig|npmrc|nvmrc|bashrc|zshrc|profile|dockerignore|eslintrc|prettierrc|htaccess'

// Root directories a lone /name is taken for a path with ("in /bin and /boot"): any lone /word
// would take prose too ("homemade /hand made", "him /her").
const ROOT_DIRS = [
  'bin', 'boot', 'dev', 'etc', 'home', 'lib', 'lib32', 'lib64', 'media', 'mnt', 'opt', 'proc', 'root',
  'run', 'sbin', 'srv', 'sys', 'tmp', 'usr', 'var', 'Applications', 'Library', 'System', 'Users', 'Volumes'
].sort((a, b) => b.length - a.length).join('|')

/** What may follow a domain: a port, then a path, query or fragment. */
const AFTER_HOST = `(?::\\d{1,5})?(?:[/?#]${U}*)?`
/** A path segment character (POSIX paths). */
const P = '[\\p{L}\\p{N}_.@%+~=,-]'

/** A pattern, and what says that a match is what it means and not prose that looks like it. */
interface Rule {
  kind: VerbatimKind
  pattern: RegExp
  /** Text every match contains, to skip the pattern on text without it. */
  needs?: string
  accept?: (match: string) => boolean
  /** Whether trailing punctuation is the sentence's, not the match's (not for a shortcode's closing colon). */
  trim?: boolean
}

/** A name.ext whose extension is one letter needs a stem of two characters: "a.m", "p.m" are times. */
const fileName = (match: string): boolean => !/^[^.]\.\p{L}$/u.test(match)
/** A call with arguments only when the callee itself looks like code: "item(s)" is prose. */
const codeCall = (match: string): boolean => match.endsWith('()') || /[._$]|[a-z][A-Z]/.test(match.slice(0, match.indexOf('(')))

const RULES: Rule[] = [
  // eslint-disable-next-line no-control-regex -- control characters are what this rule finds
  { kind: 'control', pattern: /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]+/gu },
  { kind: 'url', pattern: new RegExp(`(?<![\\p{L}\\p{N}+.-])[A-Za-z][A-Za-z0-9+.-]{1,31}://${U}+`, 'gu'), needs: '://' },
  { kind: 'url', pattern: new RegExp(`(?<!${AN})(?:mailto|tel|urn|data|magnet|xmpp|geo|sms):(?!/)${U}+`, 'gu'), needs: ':' },
  { kind: 'url', pattern: new RegExp(`(?<![\\p{L}\\p{N}_.@/-])www\\d{0,3}\\.(?:${LABEL}\\.)*${LABEL}${AFTER_HOST}`, 'gu'), needs: 'www' },
  { kind: 'url', pattern: new RegExp(`(?<![\\p{L}\\p{N}_./\\\\-])(?:${LABEL}\\.)+(?:${TLDS.join('|')})(?![\\p{L}\\p{N}_@-])${AFTER_HOST}`, 'gu'), needs: '.' },
  { kind: 'email', pattern: new RegExp(`(?<![\\p{L}\\p{N}._%+-])${AN}[\\p{L}\\p{N}._%+-]*@(?:${LABEL}\\.)+\\p{L}{2,}(?![\\p{L}\\p{N}_-])`, 'gu'), needs: '@' },
  // C:\dir\file and \\server\share: everything up to white space (Windows names may hold dots, brackets...)
  { kind: 'path', pattern: new RegExp(`(?<!${AN})(?:[A-Za-z]:\\\\|\\\\\\\\[\\p{L}\\p{N}_.$-]+\\\\)[^|*?${NEVER}]*`, 'gu'), needs: '\\' },
  // /usr/bin/x (two segments at least), ./x, ../x, ~/x, ~user/x
  { kind: 'path', pattern: new RegExp(`(?<![\\p{L}\\p{N}_.~/:\\\\)\\]-])(?:/${P}+(?:/${P}*)+|(?:\\.{1,2}|~[\\p{L}\\p{N}_-]*)/${P}*(?:/${P}*)*)`, 'gu'), needs: '/' },
  // /etc, /Users: a root directory standing alone, after a space, a bracket or a quote and before one or punctuation
  { kind: 'path', pattern: new RegExp(`(?<![^\\s(\\[{"'“‘«])/(?:${ROOT_DIRS})(?=[\\s.,;:!?)\\]}"'”’»]|$)`, 'gu'), needs: '/' },
  // dir/name.ext and dir/sub/ (not and/or, he/she/they, w/: prose)
  { kind: 'path', pattern: new RegExp(`(?<![\\p{L}\\p{N}_.~/:@\\\\-])${P}+(?:/${P}+)*/(?:${P}*\\.(?:${EXT})(?![\\p{L}\\p{N}_-])|(?<=/${P}+/)(?=[\\s.)\\]}"',;:!?]|$))`, 'gu'), needs: '/' },
  { kind: 'file', pattern: new RegExp(`(?<![\\p{L}\\p{N}_.@/\\\\-])(?:[\\p{L}\\p{N}_-][\\p{L}\\p{N}_.-]*\\.(?:${EXT})|\\.(?:${DOTFILES}))(?![\\p{L}\\p{N}_-])`, 'gu'), accept: fileName, needs: '.' },
  // `code` and ``code with ` inside``
  { kind: 'code', pattern: /``[^\n\uFFFC]+?``|`[^`\n\uFFFC]+`/gu, needs: '`' },
  // an Office escape of a character (_x000D_ is a carriage return in an XLSX cell): kept, and no part of a name
  { kind: 'control', pattern: /_x[0-9A-Fa-f]{4}_/gu, needs: '_x' },
  // snake_case_names, _private_names, CONSTANT_NAMES, __dunder__ (no Office escape is part of one: "_x000D_Carriage", "one_x000A_two")
  { kind: 'code', pattern: /(?<![\p{L}\p{N}_$])(?!_x[0-9A-Fa-f]{4}_)(?:_*\p{L}[\p{L}\p{N}]*(?:_+(?!x[0-9A-Fa-f]{4}_)[\p{L}\p{N}]+)+_*|__[\p{L}\p{N}]+__)(?![\p{L}\p{N}])/gu, needs: '_' },
  // camelCase identifiers (a first part of two letters at least: not Irish "nGaeilge")
  { kind: 'code', pattern: /(?<![\p{L}\p{N}_$-])[a-z][a-z0-9]+[A-Z][A-Za-z0-9]*(?![\p{L}\p{N}_])/gu },
  // --long-flags and --flag=value
  { kind: 'code', pattern: /(?<![\p{L}\p{N}_-])--[A-Za-z][A-Za-z0-9-]*(?:=[^\s\uFFFC]+)?/gu, needs: '--' },
  // name(), obj.method(), parse_int(s)
  { kind: 'code', pattern: /(?<![\p{L}\p{N}_$.])[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\([^()\s\uFFFC]*\)/gu, accept: codeCall, needs: '(' },
  // @user, @user@instance.social and Lemmy's !community@instance: not an e-mail's @ nor a template's {user}@host
  { kind: 'mention', pattern: /(?<![\p{L}\p{N}_=/@!.+}-])(?:@[\p{L}\p{N}_]+(?:[.-]+[\p{L}\p{N}_]+)*(?:@[\p{L}\p{N}_-]+(?:\.[\p{L}\p{N}_-]+)*)?|![\p{L}\p{N}_]+@[\p{L}\p{N}_-]+(?:\.[\p{L}\p{N}_-]+)*)/gu, needs: '@' },
  // #tag with a letter in it, as Mastodon links them: not "#31", "C#" or "page#top"
  { kind: 'hashtag', pattern: /(?<![\p{L}\p{N}_=/&#])#[\p{N}_]*\p{L}[\p{L}\p{N}_]*/gu, needs: '#' },
  // :blobcat: (custom emoji shortcodes): not "10:30:45" or "Note:this:"
  { kind: 'emoji', pattern: /(?<![\p{L}\p{N}]):[A-Za-z0-9_+-]{2,}:(?![\p{L}\p{N}])/gu, needs: ':', trim: false }
]

const CLOSERS: Record<string, string> = { ')': '(', ']': '[', '}': '{' }
/** Punctuation that ends a sentence or a clause rather than a URL or path. */
const TRAILING = /[.,;:!?'"”’»)\]}]/

/** `end` moved back over trailing punctuation, keeping closing brackets the span opened itself. */
function trimEnd (text: string, start: number, end: number): number {
  let balance: Map<string, number> | undefined
  while (end > start && TRAILING.test(text[end - 1]!)) {
    const c = text[end - 1]!
    const open = CLOSERS[c]
    if (open !== undefined) {
      // opened minus closed of each bracket kind in the span, counted once
      if (balance === undefined) {
        balance = new Map()
        for (let i = start; i < end; i++) {
          const ch = text[i]!
          if (ch in CLOSERS) balance.set(ch, (balance.get(ch) ?? 0) - 1)
          else if (ch === '(' || ch === '[' || ch === '{') balance.set(ch, (balance.get(ch) ?? 0) + 1)
        }
      }
      const owed = (balance.get(open) ?? 0) + (balance.get(c) ?? 0)
      if (owed >= 0) break
      balance.set(c, (balance.get(c) ?? 0) + 1)
    }
    end--
  }
  return end
}

/**
 * A character every match but a control one holds, or a camelCase hump (a lower-case letter or
 * digit before a capital): most short texts have none. Two characters, not the camelCase rule's
 * whole pattern: that one, tried at every start of a long lower-case word, was quadratic.
 */
const CANDIDATE = /[:@#/\\._`(-]|[a-z0-9][A-Z]/

/** The verbatim spans of `text`, sorted and disjoint (overlapping finds are merged). */
export function findVerbatim (text: string): VerbatimSpan[] {
  const found: VerbatimSpan[] = []
  const candidate = CANDIDATE.test(text)
  for (const { kind, pattern, needs, accept, trim } of RULES) {
    if (kind !== 'control' && !candidate) continue
    if (needs !== undefined && !text.includes(needs)) continue
    for (const m of text.matchAll(pattern)) {
      const start = m.index
      const end = kind === 'control' || trim === false ? start + m[0].length : trimEnd(text, start, start + m[0].length)
      if (end > start && (accept === undefined || accept(text.slice(start, end)))) found.push({ start, end, kind })
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end)
  const merged: VerbatimSpan[] = []
  for (const span of found) {
    const last = merged.at(-1)
    if (last !== undefined && span.start < last.end) last.end = Math.max(last.end, span.end)
    else merged.push({ ...span })
  }
  return merged
}

/** The spans a sentence break must not cut, as [start, end) pairs. */
export function verbatimSpans (text: string): Array<[number, number]> {
  return findVerbatim(text).map(s => [s.start, s.end])
}
