import { describe, expect, it } from 'vitest'
import { findVerbatim, verbatimSpans } from '../../../src/core/verbatim.js'

/** Each verbatim span of `text` as "kind:text". */
const found = (text: string): string[] => findVerbatim(text).map(s => `${s.kind}:${text.slice(s.start, s.end)}`)

describe('findVerbatim', () => {
  it('finds URLs with and without a scheme, leaving a sentence\'s own punctuation out', () => {
    expect(found('Visit https://example.com/path?q=the+house for more information.')).toEqual(['url:https://example.com/path?q=the+house'])
    expect(found('See the docs (https://example.com/docs).')).toEqual(['url:https://example.com/docs'])
    expect(found('Read https://en.wikipedia.org/wiki/Python_(programming_language), then stop.'))
      .toEqual(['url:https://en.wikipedia.org/wiki/Python_(programming_language)'])
    expect(found('Go to www.example.org/the/red/house, or example.com.')).toEqual(['url:www.example.org/the/red/house', 'url:example.com'])
    expect(found('Ask at shop.example.co.uk:8080/cart?id=3#top!')).toEqual(['url:shop.example.co.uk:8080/cart?id=3#top'])
    expect(found('Mail mailto:ana@example.es or call tel:+34-600-000-000; ftp://files.example.net/a.zip is old.'))
      .toEqual(['url:mailto:ana@example.es', 'url:tel:+34-600-000-000', 'url:ftp://files.example.net/a.zip'])
    expect(found('please join xmpp:muc@instance.com?join right now')).toEqual(['url:xmpp:muc@instance.com?join'])
    expect(found('«https://example.com/ruta»')).toEqual(['url:https://example.com/ruta'])
  })

  it('finds e-mail addresses', () => {
    expect(found('Write to john.doe+news@mail.example.org.')).toEqual(['email:john.doe+news@mail.example.org'])
    expect(found('Contact: soporte@empresa.es, info@example.com')).toEqual(['email:soporte@empresa.es', 'email:info@example.com'])
  })

  it('finds POSIX, relative, home and Windows paths', () => {
    expect(found('Run /usr/local/bin/node or ./scripts/build.sh, then ../lib/x and ~/notes/todo.md.'))
      .toEqual(['path:/usr/local/bin/node', 'path:./scripts/build.sh', 'path:../lib/x', 'path:~/notes/todo.md'])
    expect(found('Open C:\\Users\\Ana\\My.Documents\\notes.txt, or \\\\server\\share\\file.')).toEqual(['path:C:\\Users\\Ana\\My.Documents\\notes.txt', 'path:\\\\server\\share\\file'])
    expect(found('Edit src/core/verbatim.ts and the files in docs/guides/.')).toEqual(['path:src/core/verbatim.ts', 'path:docs/guides/'])
  })

  it('finds a root directory standing alone as a path, and no other single /word', () => {
    expect(found('They were the owners of binaries in /bin and /boot.')).toEqual(['path:/bin', 'path:/boot'])
    expect(found('(/etc) "/tmp", /usr: /var; /root! /home? /Users and /Library')).toEqual(['path:/etc', 'path:/tmp', 'path:/usr', 'path:/var', 'path:/root', 'path:/home', 'path:/Users', 'path:/Library'])
    expect(found('/binary, /Bin, /bins and x/bin')).toEqual([])
    expect(found('the homemade /hand made pastas, him /her, 10 km /h, 24 /7, w/ milk /s')).toEqual([])
  })

  it('finds file names with a known extension', () => {
    expect(found('Open index.html, then README.md and photo.JPEG; keep archive.tar.gz and .env.')).toEqual([
      'file:index.html', 'file:README.md', 'file:photo.JPEG', 'file:archive.tar.gz', 'file:.env'
    ])
    expect(found('Node.js and main.c, but not 5 p.m.')).toEqual(['file:Node.js', 'file:main.c'])
  })

  it('finds code: backticks, snake_case, CONSTANT_NAMES, camelCase, --flags and calls', () => {
    expect(found('Type `npm run build` or ``a ` b``.')).toEqual(['code:`npm run build`', 'code:``a ` b``'])
    expect(found('Set max_retry_count and MAX_VALUE, or call __init__ and _private_name.'))
      .toEqual(['code:max_retry_count', 'code:MAX_VALUE', 'code:__init__', 'code:_private_name'])
    expect(found('Use getElementById and macOS, with --dry-run or --level=3.')).toEqual(['code:getElementById', 'code:macOS', 'code:--dry-run', 'code:--level=3'])
    expect(found('Call render(), console.log(x) or parse_int(s).')).toEqual(['code:render()', 'code:console.log(x)', 'code:parse_int(s)'])
  })

  it('finds the mentions, hashtags and custom emoji shortcodes of social posts', () => {
    expect(found('@bob thanks, @alice@mastodon.social and @Gargron.')).toEqual(['mention:@bob', 'mention:@alice@mastodon.social', 'mention:@Gargron'])
    expect(found('Ask @garda@lemmy-alpha in !test@lemmy-alpha, not me!')).toEqual(['mention:@garda@lemmy-alpha', 'mention:!test@lemmy-alpha'])
    expect(found('I love #cats, #Caturday and #日本語 (#2024cats).')).toEqual(['hashtag:#cats', 'hashtag:#Caturday', 'hashtag:#日本語', 'hashtag:#2024cats'])
    expect(found('So good :blobcat: :thinking_face::+1:')).toEqual(['emoji::blobcat:', 'emoji::thinking_face:', 'emoji::+1:'])
    expect(found('ana@example.es, issue #31, C#, page#top, 10:30:45, ratio 1:2:3, Note:this:')).toEqual(['email:ana@example.es'])
  })

  it('finds runs of control characters an engine may drop', () => {
    expect(found('nul\u0000byte and \u0007\u001b here\u007f')).toEqual(['control:\u0000', 'control:\u0007\u001b', 'control:\u007f'])
    expect(found('tab\tand\nnew line\r\n')).toEqual([])
  })

  it('keeps an Office character escape, and the word after it free (a probe\'s XLSX cell "_x000D_Carriage return" kept "Carriage" as code)', () => {
    expect(found('_x000D_Carriage return here.')).toEqual(['control:_x000D_'])
    expect(found('Line one_x000D__x000A_Line two')).toEqual(['control:_x000D_', 'control:_x000A_'])
    expect(found('a snake_case_name and _x000D_ alone')).toEqual(['code:snake_case_name', 'control:_x000D_'])
  })

  it('leaves prose alone', () => {
    expect(found('e.g. the U.S. and/or he/she/they, i.e. Mr. Smith at 5 p.m. or 3.14 km/h.')).toEqual([])
    expect(found('Hello World! The item(s) cost 1/2/2024, with 24/7 support; iPhone, eBay, Dr.No.')).toEqual([])
    expect(found('She left.The end. It was good.Then a _word_ and a ____ blank -- or --- rule.')).toEqual([])
    expect(found('Sloan Ó hÉigeartaigh i nGaillimh, Müller-Lüdenscheidt und café au lait.')).toEqual([])
    expect(found('C# and C++, 50% off, a/b testing, AT&T, Q&A.')).toEqual([])
  })

  it('merges overlapping finds and never crosses an object replacement character (a tag)', () => {
    expect(found('See https://example.com/my_file.html now')).toEqual(['url:https://example.com/my_file.html'])
    expect(found('Go to https://example.com\uFFFCnow')).toEqual(['url:https://example.com'])
    expect(verbatimSpans('at x.com.')).toEqual([[3, 8]])
  })

  it('stays linear on hostile input', () => {
    const hostile = ['a.'.repeat(50_000), 'a/'.repeat(50_000), 'a_'.repeat(50_000), '`a'.repeat(50_000), 'x@a.'.repeat(25_000), ')'.repeat(100_000), 'http://a' + ')'.repeat(100_000),
      'a-'.repeat(50_000), 'www.'.repeat(25_000), 'C:\\'.repeat(30_000), '--a'.repeat(30_000), 'a('.repeat(50_000), 'aB'.repeat(50_000),
      '~/'.repeat(50_000), './'.repeat(50_000), '1.'.repeat(50_000), 'a.b/'.repeat(25_000), 'a@'.repeat(50_000), '__a'.repeat(30_000),
      '@a.'.repeat(30_000), '#1'.repeat(50_000), '#'.repeat(100_000), ':a'.repeat(50_000), ':ab'.repeat(30_000), '!a@b'.repeat(25_000), '@a@b-'.repeat(20_000),
      // one long lower-case word: the camelCase check was tried at each of its starts
      'ab'.repeat(50_000), 'a1'.repeat(50_000), '_x000D_'.repeat(15_000), '_x000D'.repeat(15_000),
      ' /'.repeat(50_000), ' /bin'.repeat(20_000), '/bi'.repeat(30_000)]
    for (const text of hostile) {
      const started = performance.now()
      findVerbatim(text)
      expect(performance.now() - started, text.slice(0, 10)).toBeLessThan(1000)
    }
  })
})
