import { segmentDocument } from './src/core/documents/index.js'
import { fixture, upper } from './test/core/documents/engines.js'
for (const [f, t] of [['page.html', 'text/html'], ['readme.md', 'text/markdown'], ['i18n.json', 'application/json']] as const) {
  const src = fixture(f)
  const d = segmentDocument(src, t)
  console.log(d.segments)
  console.log(d.rebuild(d.segments) === src)
  console.log(d.rebuild(d.segments.map(upper)))
}
