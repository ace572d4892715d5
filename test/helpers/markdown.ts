/**
 * Markdown that takes a while to parse, in paragraphs the service takes: each pairs 498 emphasis
 * markers (under MAX_EMPHASIS_RUNS; ~3-6 ms a paragraph on the development machine), so the time
 * grows with `paragraphs` (~500 characters each). `tag` ends it, to make documents distinct.
 */
export function heavyMarkdown (paragraphs: number, tag: string | number = ''): string {
  return ('*a_'.repeat(166) + '\n\n').repeat(paragraphs) + String(tag)
}
