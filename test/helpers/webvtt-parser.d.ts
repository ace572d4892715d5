/** The W3C WebVTT validator's parser (webvtt-parser), as the subtitle tests use it. */
declare module 'webvtt-parser' {
  interface ParsedCue { id: string, startTime: number, endTime: number, text: string, alignment: string, linePosition: number | string }
  const webvtt: {
    WebVTTParser: new () => {
      parse: (input: string, mode?: 'metadata' | 'chapters') => { cues: ParsedCue[], errors: Array<{ message: string, line: number }> }
    }
  }
  export default webvtt
}
