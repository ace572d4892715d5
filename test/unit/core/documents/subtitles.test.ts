import { describe, expect, it } from 'vitest'
import { parseSync } from 'subtitle'
import webvtt from 'webvtt-parser'
import { segmentDocument } from '../../../../src/core/documents/segment.js'
import { rebalance } from '../../../../src/core/documents/subtitles.js'
import { ValidationError } from '../../../../src/errors.js'
import { reverseWords, upper } from './engines.js'

const through = (value: string, mime: 'application/x-subrip' | 'text/vtt', engine: (s: string) => string): string => {
  const doc = segmentDocument(value, mime)
  return doc.rebuild(doc.segments.map(engine)) as string
}

/** The cues of an SRT file as the `subtitle` package reads them. */
function srtCues (text: string): Array<{ start: number, end: number, text: string }> {
  return parseSync(text).flatMap(node => node.type === 'cue' ? [node.data] : [])
}

/** A WebVTT file as the W3C validator's parser reads it; it must have no errors. */
function vttCues (text: string): Array<{ id: string, startTime: number, endTime: number, text: string, alignment: string, linePosition: number | string }> {
  const tree = new webvtt.WebVTTParser().parse(text, 'metadata')
  expect(tree.errors, text).toEqual([])
  return tree.cues
}

const SRT = '\uFEFF1\r\n00:00:01,000 --> 00:00:03,500\r\n<i>The red car is in</i>\r\nthe house. It is new.\r\n\r\n' +
  '2\r\n00:00:04,000 --> 00:00:06,000 X1:10 X2:100 Y1:20 Y2:50\r\n- Where is the house?\r\n- The house is here.\r\n\r\n\r\n' +
  '3\r\n00:00:07,000 --> 00:00:09,000\r\n{\\an8}A long sentence that the film shows on three lines\r\nfor the people who read\r\nthe subtitles in the cinema.\r\n'

const VTT = 'WEBVTT - a film\n\nSTYLE\n::cue(.loud) { color: red }\n\nNOTE\nThe house is red.\n\n' +
  'intro\n00:01.000 --> 00:04.000 line:0 align:start\n<v Anna>Tom &amp; Jerry live in\nthe <c.loud>red</c> house.\n\n' +
  '00:00:05.000 --> 00:00:07.000\nThe car &lt;is&gt; new.\n'

describe('application/x-subrip', () => {
  it('rebuilds byte for byte when nothing is translated', () => {
    const doc = segmentDocument(SRT, 'application/x-subrip')
    expect(doc.rebuild(doc.segments)).toBe(SRT)
  })

  it('sends each sentence once across a cue\'s lines, a dialogue cue line by line', () => {
    expect(segmentDocument(SRT, 'application/x-subrip').segments).toEqual([
      '<g id="1">The red car is in</g> the house.',
      'It is new.',
      '- Where is the house?',
      '- The house is here.',
      'A long sentence that the film shows on three lines for the people who read the subtitles in the cinema.'
    ])
  })

  it('keeps numbers, timings, coordinates, overrides and line endings, with as many lines per cue', () => {
    const out = through(SRT, 'application/x-subrip', s => reverseWords(upper(s)))
    expect(out.startsWith('\uFEFF1\r\n00:00:01,000 --> 00:00:03,500\r\n')).toBe(true)
    expect(out).toContain('\r\n\r\n2\r\n00:00:04,000 --> 00:00:06,000 X1:10 X2:100 Y1:20 Y2:50\r\n')
    expect(out).toContain('\r\n\r\n\r\n3\r\n00:00:07,000 --> 00:00:09,000\r\n{\\an8}')
    expect(out).not.toMatch(/[^\r]\n/)
    const cues = srtCues(out)
    const before = srtCues(SRT)
    expect(cues.map(c => [c.start, c.end])).toEqual(before.map(c => [c.start, c.end]))
    expect(cues.map(c => c.text.split('\n').length)).toEqual([2, 2, 3])
    expect(cues[1]!.text).toBe('HOUSE? THE IS WHERE -\nHERE. IS HOUSE THE -')
    // the wrapped sentence was sent whole and is broken again near thirds of its length
    const lines = cues[2]!.text.replace('{\\an8}', '').split('\n')
    expect(lines.join(' ')).toBe('CINEMA. THE IN SUBTITLES THE READ WHO PEOPLE THE FOR LINES THREE ON SHOWS FILM THE THAT SENTENCE LONG A')
    for (const line of lines) expect(line.length).toBeGreaterThan(25)
    expect(cues[0]!.text).toBe('HOUSE. THE <i>THE RED\nCAR IS IN</i> NEW. IS IT')
  })

  it('keeps a ruby whole, base and annotation, where it stands', () => {
    const srt = '1\n00:00:01,000 --> 00:00:02,000\n<ruby>Tokyo<rt>city</rt></ruby> is big.\n'
    expect(segmentDocument(srt, 'application/x-subrip').segments).toEqual(['<x id="1"/> is big.'])
    const cues = srtCues(through(srt, 'application/x-subrip', s => reverseWords(upper(s))))
    expect(cues.map(c => c.text)).toEqual(['BIG. IS <ruby>Tokyo<rt>city</rt></ruby>'])
  })

  it('answers a 400 naming the line of a block that is not a cue', () => {
    const cases: Array<[string, RegExp]> = [
      ['1\n00:00:01,000 --> 00:00:02,000\nHi.\n\nHello\nthere\n', /^line 5: expected a cue number or a timing line/],
      ['1\n00:00:01,000 --> 00:00:02,000\nHi.\n\n2\n00:00:03 --> 00:00:04\nHi.\n', /^line 6: expected a timing line/],
      ['just some text', /^line 1: /]
    ]
    for (const [text, message] of cases) {
      try {
        segmentDocument(text, 'application/x-subrip', { path: ['documents', 1, 'value'] })
        expect.unreachable()
      } catch (err) {
        expect(err).toBeInstanceOf(ValidationError)
        const problem = (err as ValidationError).errors![0]!
        expect(problem.path).toEqual(['documents', 1, 'value'])
        expect(problem.message).toMatch(message)
      }
    }
  })
})

describe('text/vtt', () => {
  it('rebuilds byte for byte when nothing is translated, and reads entities and tags', () => {
    const doc = segmentDocument(VTT, 'text/vtt')
    expect(doc.rebuild(doc.segments)).toBe(VTT)
    expect(doc.segments).toEqual([
      'Tom &amp; Jerry live in the <g id="1">red</g> house.',
      'The car &lt;is&gt; new.'
    ])
  })

  it('writes a character the cue spelled as a reference with it again (a probe\'s &nbsp; came back a raw U+00A0)', () => {
    const vtt = 'WEBVTT\n\n00:01.000 --> 00:02.000\nThe price is 5&nbsp;euros &lrm;here.\n'
    const out = through(vtt, 'text/vtt', upper)
    expect(out).toBe('WEBVTT\n\n00:01.000 --> 00:02.000\nTHE PRICE IS 5&nbsp;EUROS &lrm;HERE.\n')
    expect(vttCues(out)[0]!.text).toBe('THE PRICE IS 5&nbsp;EUROS &lrm;HERE.')
  })

  it('keeps the header, STYLE and NOTE blocks, identifiers, timings and settings; escapes what it writes', () => {
    const out = through(VTT, 'text/vtt', s => upper(s).replace('JERRY', 'JERRY & <TOM>'))
    expect(out.startsWith('WEBVTT - a film\n\nSTYLE\n::cue(.loud) { color: red }\n\nNOTE\nThe house is red.\n\nintro\n00:01.000 --> 00:04.000 line:0 align:start\n<v Anna>')).toBe(true)
    const cues = vttCues(out)
    expect(cues.map(c => [c.id, c.startTime, c.endTime, c.alignment, c.linePosition])).toEqual([['intro', 1, 4, 'start', 0], ['', 5, 7, 'center', 'auto']])
    expect(cues[0]!.text).toBe('<v Anna>TOM &amp; JERRY &amp; &lt;TOM&gt;\nLIVE IN THE <c.loud>RED</c> HOUSE.')
    expect(cues[1]!.text).toBe('THE CAR &lt;IS&gt; NEW.')
  })

  it('keeps a ruby whole, base and annotation, at the start of a cue, inside a sentence or left open', () => {
    const vtt = 'WEBVTT\n\n00:01.000 --> 00:02.000\n<ruby>Tokyo<rt>city</rt></ruby> is big.\n\n' +
      '00:03.000 --> 00:04.000\nWe saw <ruby.big>東京<rt>Tōkyō</ruby> today.\n\n' +
      '00:05.000 --> 00:06.000\nThe city of <ruby>東京<rt>Tōkyō\n'
    expect(segmentDocument(vtt, 'text/vtt').segments).toEqual(['<x id="1"/> is big.', 'We saw <x id="1"/> today.', 'The city of'])
    const cues = vttCues(through(vtt, 'text/vtt', s => reverseWords(upper(s))))
    expect(cues.map(c => c.text)).toEqual([
      'BIG. IS <ruby>Tokyo<rt>city</rt></ruby>',
      'TODAY. <ruby.big>東京<rt>Tōkyō</ruby> SAW WE',
      'OF CITY THE <ruby>東京<rt>Tōkyō'
    ])
  })

  it('keeps one line per speaker in a cue whose every line opens a voice span', () => {
    const vtt = 'WEBVTT\n\n00:00:03.000 --> 00:00:05.000\n<v Bob>Is it ready?</v>\n<v Alice>Not yet, wait.\n\n' +
      '00:00:06.000 --> 00:00:08.000\r\n<v.loud Bob>Now?\r\n<i><v Alice>Not now. Later.</i>\r\n'
    expect(segmentDocument(vtt, 'text/vtt').segments).toEqual(['Is it ready?', 'Not yet, wait.', 'Now?', 'Not now.', 'Later.'])
    const out = through(vtt, 'text/vtt', s => reverseWords(upper(s)))
    expect(vttCues(out).map(c => c.text)).toEqual([
      '<v Bob>READY? IT IS</v>\n<v Alice>WAIT. YET, NOT',
      '<v.loud Bob>NOW?\n<i><v Alice>NOW. NOT LATER.</i>'
    ])
    expect(out).toContain('\r\n<v.loud Bob>NOW?\r\n<i>')
  })

  it('reads a timing line after white space, as WebVTT collects timings (a probe\'s "  00:00:00.000 --> …" got 400), and writes it back as it was', () => {
    const vtt = 'WEBVTT\n\n1\n  00:00:00.000 --> 00:00:01.000\nHello world.\n\n\t00:02.000 --> 00:03.000 align:start\nThe house.\n\n  intro\n \t00:04.000 --> 00:05.000\nThe car.\n'
    const out = through(vtt, 'text/vtt', upper)
    expect(out).toBe(vtt.replace('Hello world.', 'HELLO WORLD.').replace('The house.', 'THE HOUSE.').replace('The car.', 'THE CAR.'))
    expect(vttCues(out).map(c => [c.id, c.startTime, c.endTime, c.alignment, c.text])).toEqual([
      ['1', 0, 1, 'center', 'HELLO WORLD.'],
      ['', 2, 3, 'start', 'THE HOUSE.'],
      ['  intro', 4, 5, 'center', 'THE CAR.']
    ])
  })

  it('a line of white space is no blank line in WebVTT: it is the cue\'s text, or the header\'s', () => {
    const vtt = 'WEBVTT\n\n00:01.000 --> 00:02.000\nThe red car.\n   \nThe house.\n\n00:03.000 --> 00:04.000\nThe new car.\n \n\n00:05.000 --> 00:06.000\n\t\nThe door.\n'
    expect(segmentDocument(vtt, 'text/vtt').segments).toEqual(['The red car.', 'The house.', 'The new car.', 'The door.'])
    const out = through(vtt, 'text/vtt', upper)
    // the lines of white space around a cue's text are kept as they were
    expect(out).toContain('00:03.000 --> 00:04.000\nTHE NEW CAR.\n \n\n00:05.000 --> 00:06.000\n\t\nTHE DOOR.\n')
    expect(vttCues(out).map(c => c.text.replace(/\s+/g, ' '))).toEqual(['THE RED CAR. THE HOUSE.', 'THE NEW CAR. ', ' THE DOOR.'])
    // the header ends at a timing line, as WebVTT's parser ends it: the cue is still translated
    const header = 'WEBVTT\n  \n00:01.000 --> 00:02.000\nThe house.\n'
    expect(through(header, 'text/vtt', upper)).toBe(header.replace('The house.', 'THE HOUSE.'))
  })

  it('reads a line of white space right before a cue (its timing line, or its identifier and then it) as the blank line its writer meant', () => {
    const vtt = 'WEBVTT\n\n1\n00:01.000 --> 00:02.000\nThe house.\n  \n2\n00:03.000 --> 00:04.000\nThe car.\n\t\n00:05.000 --> 00:06.000\nThe door.\n'
    expect(segmentDocument(vtt, 'text/vtt').segments).toEqual(['The house.', 'The car.', 'The door.'])
    const out = through(vtt, 'text/vtt', upper)
    expect(out).toBe(vtt.replace('The house.', 'THE HOUSE.').replace('The car.', 'THE CAR.').replace('The door.', 'THE DOOR.'))
  })

  it('keeps a REGION block', () => {
    const region = 'WEBVTT\n\nREGION\nid:left width:40%\n\n00:01.000 --> 00:02.000 region:left\nThe house.\n'
    expect(through(region, 'text/vtt', upper)).toBe(region.replace('The house.', 'THE HOUSE.'))
  })

  it('answers a 400 naming the line', () => {
    const cases: Array<[string, RegExp]> = [
      ['1\n00:00:01.000 --> 00:00:02.000\nHi.\n', /^line 1: a WebVTT file starts with "WEBVTT"/],
      ['WEBVTT\n\n00:01.000 --> 00:02.000\nHi.\n\nid\nnot a timing\n', /^line 7: expected a timing line/],
      ['WEBVTT\n\n00:01.000 --> 00:02.000\nHi.\n00:03.000 --> 00:04.000\n', /^line 5: a cue's text may not hold "-->"/],
      // a line of white space does not end a cue: the two lines after it are its text, the timing line after them too
      ['WEBVTT\n\n1\n00:01.000 --> 00:02.000\nHi.\n  \nHo.\n2\n00:03.000 --> 00:04.000\nHo.\n', /^line 9: a cue's text may not hold "-->" .*a line of white space is not blank/]
    ]
    for (const [text, message] of cases) {
      expect(() => segmentDocument(text, 'text/vtt')).toThrow(message)
    }
  })

  it('string leaves of an object are files of their own', () => {
    const doc = segmentDocument({ a: VTT, b: [VTT] }, 'text/vtt')
    expect(doc.segments).toHaveLength(4)
    expect(doc.rebuild(doc.segments)).toEqual({ a: VTT, b: [VTT] })
  })
})

describe('rebalance', () => {
  it('breaks at the spaces nearest proportional positions, never inside markup', () => {
    expect(rebalance('one two three four', 2, '\n')).toBe('one two\nthree four')
    expect(rebalance('<v Anna Smith>aaaa bbbb cccc', 2, '\r\n')).toBe('<v Anna Smith>aaaa bbbb\r\ncccc')
    expect(rebalance('a\nb c\n d', 1, '\n')).toBe('a b c d')
    expect(rebalance('word', 3, '\n')).toBe('word')
    expect(rebalance('a b', 3, '\n')).toBe('a\nb')
    expect(rebalance('<ruby>New York<rt>the big city</rt></ruby> is big', 2, '\n')).toBe('<ruby>New York<rt>the big city</rt></ruby>\nis big')
  })
})
