/**
 * The playground page: sign in, then try translate, detect, edit and analyze against this
 * service's API. Answers are only ever put into the page as text nodes or built elements;
 * translated HTML is shown in a sandboxed frame (no scripts, opaque origin) through the one
 * Trusted Types policy the page's Content-Security-Policy allows.
 */
import { api, ApiProblem, onSessionChange, session, signInWithCredentials, signInWithToken, signOut } from './api.js'
import { renderMarkdown } from './markdown.js'

const previewPolicy = globalThis.trustedTypes?.createPolicy('playground-preview', { createHTML: html => html }) ?? null

// ---------------------------------------------------------------- DOM helpers

/** The element matching `selector` (the page's own markup: it is there). */
const $ = (selector, root = document) => root.querySelector(selector)

/** An element with attributes (never `style` or handlers) and children (strings become text nodes). */
function h (tag, attributes = {}, ...children) {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue
    if (name === 'class') node.className = value
    else node.setAttribute(name, value === true ? '' : String(value))
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false && child !== '') node.append(child)
  }
  return node
}

const names = new Map()
const displayNames = (() => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' })
  } catch {
    return null
  }
})()

/** A readable name for a language tag: the service's own name, else the browser's. */
function languageName (tag) {
  const known = names.get(tag)
  if (known !== undefined) return known
  try {
    return tag === 'und' ? 'Undetermined' : displayNames?.of(tag) ?? tag
  } catch {
    return tag
  }
}

const percent = (value) => `${(Math.round(value * 1000) / 10).toLocaleString('en')} %`

/** A <meter> named `label` (the number is also written next to it). */
function meter (value, label, range = {}) {
  const m = h('meter', {
    min: range.min ?? 0,
    max: range.max ?? 1,
    low: range.low,
    high: range.high,
    optimum: range.optimum,
    value,
    'aria-label': label
  })
  m.textContent = String(value)
  return m
}

/** A list of labelled bars, highest first. */
function bars (items, range) {
  const list = h('ul', { class: 'bars' })
  for (const item of [...items].sort((a, b) => b.confidence - a.confidence)) {
    list.append(h('li', {}, h('span', { class: 'bar-name' }, String(item.name)), meter(item.confidence, String(item.name), range), h('span', { class: 'bar-value' }, percent(item.confidence))))
  }
  return list
}

/** A button copying `text()` to the clipboard, saying so for a moment. */
function copyButton (text, label) {
  const button = h('button', { type: 'button', class: 'small', 'aria-label': label }, 'Copy')
  button.addEventListener('click', async () => {
    let ok = false
    try {
      await navigator.clipboard.writeText(text())
      ok = true
    } catch {
      // no clipboard API (plain http on a LAN is not a secure context): the old way
      const area = h('textarea', { class: 'offscreen', readonly: true, 'aria-hidden': 'true' })
      area.value = text()
      document.body.append(area)
      area.select()
      try {
        ok = document.execCommand('copy')
      } catch {
        ok = false
      }
      area.remove()
    }
    button.textContent = ok ? 'Copied' : 'Copy failed'
    setTimeout(() => { button.textContent = 'Copy' }, 1500)
  })
  return button
}

// ---------------------------------------------------------------- problems and long calls

/** Shows a failed call (problem+json title, detail, field pointers) or a local problem in `box`. */
function showProblem (box, err) {
  let title = 'Something went wrong'
  let detail = ''
  let status = 0
  let errors = []
  let requestId = ''
  if (err instanceof ApiProblem) {
    ({ title, detail, status, errors, requestId } = err)
  } else if (err instanceof TypeError) {
    title = 'The service did not answer'
    detail = `Network error: ${err.message}`
  } else if (err !== null && typeof err === 'object' && typeof err.title === 'string') {
    title = err.title
    detail = String(err.detail ?? '')
  } else if (err instanceof Error) {
    detail = err.message
  }
  box.replaceChildren(h('div', { class: 'problem-box' },
    h('p', { class: 'problem-title' }, h('strong', {}, title), status ? ` (HTTP ${status})` : ''),
    detail && h('p', { class: 'problem-detail' }, detail),
    errors.length > 0 && h('ul', { class: 'problem-errors' }, errors.map(e =>
      h('li', {}, h('code', {}, `${typeof e.in === 'string' ? e.in + ' ' : ''}${String(e.pointer ?? '') || '/'}`), ' ', String(e.message ?? '')))),
    requestId && h('p', { class: 'hint' }, 'Request id: ', h('code', {}, requestId))
  ))
}

/**
 * The runner of one panel's calls: a spinner and a Cancel button while `work(signal)` runs, its
 * problem shown when it fails, the time it took when it succeeds. A new run cancels the previous one.
 */
function operation (name) {
  const form = $(`#${name}-form`)
  const submit = $('button[type=submit]', form)
  const busy = $('.busy', form)
  const cancel = $('.cancel', form)
  const elapsed = $('.elapsed', form)
  const problem = $(`#${name}-problem`)
  const output = $(`#${name}-output`)
  let controller = null
  cancel.addEventListener('click', () => controller?.abort())
  return async (work) => {
    controller?.abort()
    const mine = new AbortController()
    controller = mine
    problem.replaceChildren()
    elapsed.textContent = ''
    const hadFocus = document.activeElement === submit
    busy.hidden = false
    submit.disabled = true
    form.setAttribute('aria-busy', 'true')
    if (hadFocus) cancel.focus()
    const started = performance.now()
    try {
      await work(mine.signal)
      if (!mine.signal.aborted) elapsed.textContent = `Answered in ${Math.round(performance.now() - started)} ms`
    } catch (err) {
      if (mine.signal.aborted) {
        elapsed.textContent = 'Cancelled.'
      } else {
        // results of an earlier call next to this problem would read as this call's
        output.replaceChildren()
        showProblem(problem, err)
      }
    } finally {
      if (controller === mine) {
        controller = null
        busy.hidden = true
        submit.disabled = false
        form.removeAttribute('aria-busy')
        if (document.activeElement === cancel || document.activeElement === document.body) submit.focus()
      }
    }
  }
}

/** A problem raised by the page itself, before anything is sent. */
const localProblem = (title, detail) => ({ title, detail })

// ---------------------------------------------------------------- tabs

const tabs = [...document.querySelectorAll('[role=tab]')]

function selectTab (tab, focus) {
  for (const t of tabs) {
    const on = t === tab
    t.setAttribute('aria-selected', String(on))
    t.tabIndex = on ? 0 : -1
    document.getElementById(t.getAttribute('aria-controls')).hidden = !on
  }
  if (focus) tab.focus()
}

for (const tab of tabs) tab.addEventListener('click', () => selectTab(tab, false))
$('[role=tablist]').addEventListener('keydown', (event) => {
  const at = tabs.indexOf(document.activeElement)
  if (at < 0) return
  const next = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[event.key]
  if (next === undefined) return
  event.preventDefault()
  selectTab(tabs[(next + tabs.length) % tabs.length], true)
})

// ---------------------------------------------------------------- sign in

const authProblem = $('#auth-problem')

function describeExpiry () {
  const s = session()
  if (!s.signedIn) return ''
  if (s.expires === null) return 'The token does not say when it expires.'
  const left = s.expires - Date.now()
  if (left <= 0) return s.via === 'pasted' ? 'The token has expired: paste a new one or sign in with credentials.' : 'The token has expired.'
  const at = new Date(s.expires).toLocaleTimeString()
  const minutes = Math.floor(left / 60_000)
  const remaining = minutes >= 120 ? `${Math.floor(minutes / 60)} h` : minutes >= 1 ? `${minutes} min` : `${Math.ceil(left / 1000)} s`
  return `The token expires at ${at} (in ${remaining})${s.via === 'credentials' ? ' and is renewed before then.' : '.'}`
}

function renderSession (s) {
  $('#auth-forms').hidden = s.signedIn
  $('#auth-status').hidden = !s.signedIn
  $('#auth-title').textContent = s.signedIn ? 'Signed in' : 'Sign in'
  const who = s.subject ? ` as ${s.subject}` : ''
  const how = s.via === 'pasted' ? ' with a pasted token' : ''
  $('#auth-who').textContent = s.signedIn ? `Signed in${who}${how}${s.scope ? ` (scope: ${s.scope})` : ''}.` : ''
  $('#auth-expiry').textContent = describeExpiry()
  if (s.renewError) showProblem(authProblem, s.renewError)
}

onSessionChange(renderSession)
setInterval(() => { $('#auth-expiry').textContent = describeExpiry() }, 10_000)

async function afterSignIn () {
  authProblem.replaceChildren()
  $('#auth-message').focus()
  await Promise.all([loadLocales(), loadTones()])
}

$('#credentials-form').addEventListener('submit', async (event) => {
  event.preventDefault()
  const id = $('#client-id').value.trim()
  const secret = $('#client-secret')
  if (id === '' || secret.value === '') {
    showProblem(authProblem, localProblem('Client id and secret needed', 'Enter both the client id and the client secret.'))
    return
  }
  const button = $('button[type=submit]', event.currentTarget)
  button.disabled = true
  authProblem.replaceChildren()
  try {
    await signInWithCredentials(id, secret.value)
    secret.value = ''
    await afterSignIn()
  } catch (err) {
    showProblem(authProblem, err)
  } finally {
    button.disabled = false
  }
})

$('#token-form').addEventListener('submit', async (event) => {
  event.preventDefault()
  const field = $('#bearer-token')
  if (field.value.trim() === '') {
    showProblem(authProblem, localProblem('No token', 'Paste an access token first.'))
    return
  }
  signInWithToken(field.value)
  field.value = ''
  await afterSignIn()
})

$('#sign-out').addEventListener('click', () => {
  signOut()
  authProblem.replaceChildren()
  resetLanguages()
  $('#client-id').focus()
})

// ---------------------------------------------------------------- translate

const translate = {
  locales: null,
  selected: new Set(),
  available: [],
  /** source -> the targets it translates into, each with the services for the pair, as a promise. */
  reach: new Map(),
  generation: 0
}
const targetsNote = $('#targets-note')
const tagList = h('datalist', { id: 'language-tags' })
document.body.append(tagList)

function resetLanguages () {
  translate.locales = null
  translate.available = []
  translate.reach.clear()
  translate.generation++
  names.clear()
  $('#translate-source').replaceChildren(h('option', { value: 'auto' }, 'Detect the language'))
  $('#translate-service').replaceChildren(h('option', { value: '' }, 'Any (the configured order, with fallback)'))
  $('#edit-tone').replaceChildren(h('option', { value: '' }, 'No tone edit'))
  tagList.replaceChildren()
  renderTargets()
  targetsNote.textContent = 'Sign in to load the languages.'
}

async function loadLocales () {
  try {
    const locales = await api('GET', '/language/translate/locales')
    translate.locales = locales
    translate.reach.clear()
    for (const l of [...locales.source, ...locales.target]) names.set(l.tag, l.name)
    const source = $('#translate-source')
    const chosen = source.value
    source.replaceChildren(h('option', { value: 'auto' }, 'Detect the language'),
      ...locales.source.map(l => h('option', { value: l.tag }, `${l.name} (${l.tag})`)))
    source.value = locales.source.some(l => l.tag === chosen) ? chosen : 'auto'
    const services = [...new Set([...locales.source, ...locales.target].flatMap(l => l.services))].sort()
    const service = $('#translate-service')
    const serviceChosen = service.value
    service.replaceChildren(h('option', { value: '' }, 'Any (the configured order, with fallback)'),
      ...services.map(s => h('option', { value: s }, s)))
    service.value = services.includes(serviceChosen) ? serviceChosen : ''
    tagList.replaceChildren(...[...names.keys()].sort().map(tag => h('option', { value: tag }, languageName(tag))))
    await updateTargets()
  } catch (err) {
    targetsNote.textContent = 'The languages could not be loaded.'
    showProblem($('#translate-problem'), err)
    if (err instanceof ApiProblem && (err.status === 401 || err.status === 403)) showProblem(authProblem, err)
  }
}

/** The targets `source` translates into, with the services for each pair: one request per source. */
function reachOf (source) {
  let known = translate.reach.get(source)
  if (known === undefined) {
    known = api('GET', `/language/translate/locales?${new URLSearchParams({ source })}`).then(answer => answer.target)
    known.catch(() => translate.reach.delete(source))
    translate.reach.set(source, known)
  }
  return known
}

/** Lists the targets that work for the chosen source and service. */
async function updateTargets () {
  const generation = ++translate.generation
  const locales = translate.locales
  if (locales === null) return
  const source = $('#translate-source').value
  const service = $('#translate-service').value
  const serves = (services) => service === '' ? services.length > 0 : services.includes(service)
  let available
  let note
  if (source === 'auto') {
    available = locales.target.filter(t => serves(t.services))
    note = 'The detected language must be one that translates into the targets chosen.'
  } else {
    targetsNote.textContent = `Checking which languages ${languageName(source)} translates into…`
    const [answer] = await Promise.allSettled([reachOf(source)])
    if (generation !== translate.generation) return
    if (answer.status === 'rejected') {
      showProblem($('#translate-problem'), answer.reason)
      // the targets stay listed when the check failed: the translation itself will say
      const from = locales.source.find(s => s.tag === source)
      available = locales.target.filter(t => t.services.some(s => from?.services.includes(s)))
    } else {
      available = answer.value.filter(t => serves(t.services))
    }
    note = `${available.length} of ${locales.target.length} target languages work from ${languageName(source)}${service ? ` with ${service}` : ''}.`
  }
  translate.available = available
  for (const tag of translate.selected) if (!available.some(t => t.tag === tag)) translate.selected.delete(tag)
  renderTargets()
  targetsNote.textContent = available.length === 0 ? 'No target language works with this choice.' : note
}

function renderTargets () {
  const filter = $('#targets-filter').value.trim().toLowerCase()
  const list = $('#targets-list')
  list.replaceChildren(...translate.available.map(t => {
    const input = h('input', { type: 'checkbox', id: `target-${t.tag}`, value: t.tag })
    input.checked = translate.selected.has(t.tag)
    const label = h('label', { class: 'check', for: input.id }, input, ` ${t.name} `, h('span', { class: 'tag' }, t.tag))
    label.hidden = filter !== '' && !t.name.toLowerCase().includes(filter) && !t.tag.toLowerCase().startsWith(filter)
    return label
  }))
  $('#targets-count').textContent = translate.selected.size > 0 ? `(${translate.selected.size} chosen)` : ''
}

$('#targets-list').addEventListener('change', (event) => {
  const input = event.target
  if (input.checked) translate.selected.add(input.value)
  else translate.selected.delete(input.value)
  $('#targets-count').textContent = translate.selected.size > 0 ? `(${translate.selected.size} chosen)` : ''
})
$('#targets-filter').addEventListener('input', renderTargets)
$('#translate-source').addEventListener('change', updateTargets)
$('#translate-service').addEventListener('change', updateTargets)

// substitutions: an editable table
const subsBody = $('#subs-body')
const SUB_FIELDS = [['source', 'source language'], ['target', 'target language'], ['text', 'text'], ['substitution', 'substitution']]

function numberSubstitutions () {
  ;[...subsBody.rows].forEach((row, k) => {
    for (const [field, what] of SUB_FIELDS) $(`[data-field=${field}]`, row).setAttribute('aria-label', `Substitution ${k + 1}: ${what}`)
    $('button', row).setAttribute('aria-label', `Remove substitution ${k + 1}`)
  })
}

function addSubstitution () {
  const row = h('tr', {}, SUB_FIELDS.map(([field]) => h('td', {}, h('input', {
    'data-field': field,
    autocomplete: 'off',
    spellcheck: 'false',
    list: field === 'source' || field === 'target' ? 'language-tags' : null,
    class: field === 'source' || field === 'target' ? 'tag-input' : null
  }))))
  const remove = h('button', { type: 'button', class: 'small' }, 'Remove')
  remove.addEventListener('click', () => {
    row.remove()
    numberSubstitutions()
    $('#subs-add').focus()
  })
  row.append(h('td', {}, remove))
  subsBody.append(row)
  numberSubstitutions()
  return row
}

$('#subs-add').addEventListener('click', () => $('input', addSubstitution()).focus())

function substitutions () {
  const rules = []
  for (const row of subsBody.rows) {
    const rule = {}
    for (const [field] of SUB_FIELDS) {
      const value = $(`[data-field=${field}]`, row).value.trim()
      if (value !== '') rule[field] = value
    }
    // an empty row is ignored; a half-filled one is sent, and the service says what is missing
    if (Object.keys(rule).length > 0) rules.push(rule)
  }
  return rules
}

/** Formats sent as files: the file in base64 as document.value, and answered the same way. */
const FILE_FORMATS = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
  epub: 'application/epub+zip'
}
const BINARY_FORMATS = new Map(Object.entries(FILE_FORMATS).map(([extension, mime]) => [mime, extension]))
/** Text formats a chosen file is read into the text box as, by extension. */
const TEXT_FORMATS = {
  txt: 'text/plain',
  html: 'text/html',
  htm: 'text/html',
  md: 'text/markdown',
  json: 'application/json',
  srt: 'application/x-subrip',
  vtt: 'text/vtt',
  po: 'text/x-gettext-translation',
  pot: 'text/x-gettext-translation',
  xlf: 'application/xliff+xml',
  xliff: 'application/xliff+xml',
  xml: 'application/vnd.android.strings+xml'
}

/** The file chosen in a binary format: { name, mime, base64 }, or null (the text box is sent). */
let chosenFile = null
/** Download links of the last answer, released when the next one is shown. */
let downloads = []

function toBase64 (bytes) {
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

function fromBase64 (text) {
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

function forgetFile () {
  chosenFile = null
  $('#translate-file').value = ''
  $('#translate-text').disabled = false
  $('#translate-file-note').replaceChildren()
}

$('#translate-file').addEventListener('change', async () => {
  const file = $('#translate-file').files[0]
  if (file === undefined) return forgetFile()
  const extension = file.name.includes('.') ? file.name.split('.').pop().toLowerCase() : ''
  const mime = Object.hasOwn(FILE_FORMATS, extension) ? FILE_FORMATS[extension] : undefined
  const note = $('#translate-file-note')
  if (mime !== undefined) {
    chosenFile = { name: file.name, mime, base64: toBase64(new Uint8Array(await file.arrayBuffer())) }
    $('#translate-mime').value = mime
    $('#translate-text').value = ''
    $('#translate-text').disabled = true
    const remove = h('button', { type: 'button', class: 'small' }, 'Remove the file')
    remove.addEventListener('click', forgetFile)
    note.replaceChildren(`${file.name} (${Math.ceil(file.size / 1024)} KB) is sent as it is; each translation comes back as a file to download. `, remove)
  } else {
    forgetFile()
    $('#translate-text').value = await file.text()
    if (Object.hasOwn(TEXT_FORMATS, extension)) $('#translate-mime').value = TEXT_FORMATS[extension]
    note.replaceChildren(`${file.name} was read into the text box.`)
  }
})

function translateRequest () {
  const body = {
    document: chosenFile === null
      ? { value: $('#translate-text').value, mime_type: $('#translate-mime').value }
      : { value: chosenFile.base64, mime_type: chosenFile.mime },
    targets: [...translate.selected]
  }
  const source = $('#translate-source').value
  if (source !== 'auto') body.source = source
  const options = {}
  const service = $('#translate-service').value
  if (service !== '') options.service = service
  const formality = $('#translate-formality').value
  if (formality !== '') options.formality = formality
  const context = $('#translate-context').value.trim()
  if (context !== '') options.context = context
  if (Object.keys(options).length > 0) body.options = options
  const rules = substitutions()
  if (rules.length > 0) body.substitutions = rules
  return body
}

/** One target's translation: rendered (HTML, Markdown) and as source, with a copy button. */
function resultCard (tag, result, service) {
  const value = typeof result.value === 'string' ? result.value : JSON.stringify(result.value, null, 2)
  const mime = String(result.mime_type ?? '').split(';')[0].trim().toLowerCase()
  const name = languageName(tag)
  const headingId = `result-${tag}`
  const heading = [
    h('h3', { id: headingId }, `${name} `, h('span', { class: 'tag' }, tag)),
    h('span', { class: 'badge', title: 'The service that translated it' }, service ?? 'unknown')
  ]
  if (BINARY_FORMATS.has(mime)) {
    // a file: offered for download under the source file's name, with the target's tag
    const extension = BINARY_FORMATS.get(mime)
    const stem = (chosenFile?.name ?? 'document').replace(/\.[^.]*$/, '')
    const url = URL.createObjectURL(new Blob([fromBase64(value)], { type: mime }))
    downloads.push(url)
    const fileName = `${stem}.${tag}.${extension}`
    return h('article', { class: 'result', 'data-target': tag, 'aria-labelledby': headingId },
      h('header', { class: 'result-head' }, heading),
      h('p', {}, h('a', { class: 'download', href: url, download: fileName }, `Download ${fileName}`)))
  }
  const card = h('article', { class: 'result', 'data-target': tag, 'aria-labelledby': headingId },
    h('header', { class: 'result-head' }, heading, copyButton(() => value, `Copy the ${name} translation`)))
  const source = h('pre', { class: 'source' }, h('code', {}, value))
  if (mime === 'text/html') {
    const frame = h('iframe', { class: 'preview', sandbox: '', title: `${name} translation, rendered`, referrerpolicy: 'no-referrer' })
    frame.srcdoc = previewPolicy === null ? value : previewPolicy.createHTML(value)
    card.append(frame, h('details', { class: 'source-details' }, h('summary', {}, 'HTML source'), source))
  } else if (mime === 'text/markdown') {
    card.append(h('div', { class: 'markdown' }, renderMarkdown(value)), h('details', { class: 'source-details' }, h('summary', {}, 'Markdown source'), source))
  } else {
    card.append(source)
  }
  return card
}

const runTranslate = operation('translate')
$('#translate-form').addEventListener('submit', (event) => {
  event.preventDefault()
  const output = $('#translate-output')
  runTranslate(async (signal) => {
    if (chosenFile === null && $('#translate-text').value.trim() === '') throw localProblem('Nothing to translate', 'Type or paste some text, or choose a file, first.')
    if (translate.selected.size === 0) throw localProblem('No target language', 'Choose at least one language to translate into.')
    const answer = await api('POST', '/language/translate', translateRequest(), signal)
    const extra = answer.extra ?? {}
    const services = extra.services ?? {}
    const summary = h('div', { class: 'summary' })
    if (extra.detected) {
      summary.append(h('p', { class: 'detected' }, 'Detected ', h('strong', {}, languageName(extra.detected.language)),
        ' ', h('span', { class: 'tag', 'data-detected': '' }, extra.detected.language), ', confidence ',
        meter(extra.detected.confidence, 'Detection confidence'), ' ', percent(extra.detected.confidence)))
    } else if (extra.source) {
      summary.append(h('p', {}, 'From ', h('strong', {}, languageName(extra.source)), ' ', h('span', { class: 'tag' }, extra.source)))
    }
    if (Array.isArray(extra.substitutions) && extra.substitutions.length > 0) {
      summary.append(h('p', {}, 'Substitutions applied: ', extra.substitutions.map((s, k) =>
        h('span', { class: 'sub-used' }, k > 0 ? '; ' : '', `“${s.text}” → “${s.substitution}” ×${s.count}`))))
    }
    for (const url of downloads) URL.revokeObjectURL(url)
    downloads = []
    const results = h('div', { class: 'results' }, Object.entries(answer.results ?? {}).map(([tag, result]) => resultCard(tag, result, services[tag])))
    output.replaceChildren(summary, results)
  })
})

// ---------------------------------------------------------------- detect

const runDetect = operation('detect')
$('#detect-form').addEventListener('submit', (event) => {
  event.preventDefault()
  runDetect(async (signal) => {
    const value = $('#detect-text').value
    if (value.trim() === '') throw localProblem('Nothing to detect', 'Type or paste some text first.')
    const answer = await api('POST', '/language/detect', { document: { value, mime_type: $('#detect-mime').value } }, signal)
    const alternatives = Array.isArray(answer.alternatives) ? answer.alternatives : []
    $('#detect-output').replaceChildren(h('div', { class: 'detection' },
      h('p', { class: 'big' }, h('span', { class: 'language-name' }, languageName(answer.language)), ' ', h('span', { class: 'tag', id: 'detected-language' }, answer.language)),
      h('p', { class: 'confidence' }, 'Confidence ', meter(answer.confidence, 'Confidence'), ' ', h('span', { id: 'detected-confidence' }, percent(answer.confidence))),
      alternatives.length > 0
        ? h('div', {}, h('h3', {}, 'Alternatives'), bars(alternatives.map(a => ({ name: `${languageName(a.language)} (${a.language})`, confidence: a.confidence })), {}))
        : h('p', { class: 'hint' }, 'No alternatives.')))
  })
})

// ---------------------------------------------------------------- edit

async function loadTones () {
  try {
    const tones = await api('GET', '/language/edit/tones')
    const select = $('#edit-tone')
    const chosen = select.value
    select.replaceChildren(h('option', { value: '' }, 'No tone edit'), ...tones.map(t => h('option', { value: t }, t)))
    select.value = tones.includes(chosen) ? chosen : ''
  } catch (err) {
    showProblem($('#edit-problem'), err)
  }
}

for (const [input, output] of [['#edit-tone-level', '#edit-tone-level-value'], ['#edit-temperature', '#edit-temperature-value']]) {
  $(input).addEventListener('input', () => { $(output).textContent = $(input).value })
}

const describeChange = (c) => `${c.type}${typeof c.reason === 'string' && c.reason ? `: ${c.reason}` : ''}`

/** The original text with the changes marked: deletions struck through, insertions underlined. */
function diffView (original, changes) {
  const points = Array.from(original)
  const view = h('p', { class: 'diff' })
  let at = 0
  const sorted = changes
    .filter(c => Number.isInteger(c.offset) && Number.isInteger(c.length) && c.offset >= 0 && c.length >= 0)
    .sort((a, b) => a.offset - b.offset || a.length - b.length)
  for (const c of sorted) {
    // overlapping or out-of-range changes cannot be drawn on one line of text
    if (c.offset < at || c.offset + c.length > points.length) continue
    view.append(points.slice(at, c.offset).join(''))
    if (c.length > 0) view.append(h('del', { title: describeChange(c) }, points.slice(c.offset, c.offset + c.length).join('')))
    if (typeof c.replacement === 'string' && c.replacement !== '') view.append(h('ins', { title: describeChange(c) }, c.replacement))
    at = c.offset + c.length
  }
  view.append(points.slice(at).join(''))
  return view
}

const runEdit = operation('edit')
$('#edit-form').addEventListener('submit', (event) => {
  event.preventDefault()
  runEdit(async (signal) => {
    const value = $('#edit-text').value
    if (value.trim() === '') throw localProblem('Nothing to edit', 'Type or paste some text first.')
    const edits = [...document.querySelectorAll('input[name=edit-kind]:checked')].map(input => ({ type: input.value }))
    const length = $('#edit-length').value
    if (length !== '') edits.push({ type: 'length', length })
    const tone = $('#edit-tone').value
    if (tone !== '') edits.push({ type: 'tone', tone })
    if (edits.length === 0) throw localProblem('No edit chosen', 'Choose at least one edit.')
    const doc = { value }
    const language = $('#edit-language').value.trim()
    if (language !== '') doc.language = language
    const body = { document: doc, edits, tone_level: Number($('#edit-tone-level').value), temperature: Number($('#edit-temperature').value) }
    const answer = await api('POST', '/language/edit', body, signal)
    const edited = typeof answer.document?.value === 'string' ? answer.document.value : JSON.stringify(answer.document?.value, null, 2)
    const original = typeof answer.original?.value === 'string' ? answer.original.value : value
    const changes = Array.isArray(answer.changes) ? answer.changes : []
    const meta = answer.meta ?? {}
    $('#edit-output').replaceChildren(
      h('p', { class: 'hint' }, `Edited by ${String(meta.editor ?? 'the service')}${meta.language ? `, language ${String(meta.language)}` : ''}.`),
      h('div', { class: 'result' },
        h('header', { class: 'result-head' }, h('h3', {}, 'Edited text'), copyButton(() => edited, 'Copy the edited text')),
        h('pre', { class: 'source' }, h('code', {}, edited))),
      h('h3', {}, `Changes (${changes.length})`),
      ...(changes.length === 0
        ? [h('p', { class: 'hint' }, 'No changes.')]
        : [diffView(original, changes), h('ol', { class: 'changes' }, changes.map(c => h('li', {},
            h('span', { class: 'change-type' }, String(c.type)), ' ',
            h('del', {}, String(c.original ?? '')), ' → ', h('ins', {}, String(c.replacement ?? '')),
            typeof c.reason === 'string' && c.reason ? h('span', { class: 'hint' }, ` ${c.reason}`) : '')))]))
  })
})

// ---------------------------------------------------------------- analyze

/** `text` with the entities' mentions marked (offsets are code points into the text). */
function entityView (text, entities) {
  const spans = []
  for (const entity of entities) {
    const offsets = Array.isArray(entity.meta?.offsets) ? entity.meta.offsets : []
    for (const o of offsets) {
      if (Number.isInteger(o.offset) && Number.isInteger(o.length) && o.length > 0) spans.push({ offset: o.offset, length: o.length, entity })
    }
  }
  spans.sort((a, b) => a.offset - b.offset || b.length - a.length)
  const points = Array.from(text)
  const view = h('p', { class: 'entities-text' })
  let at = 0
  for (const span of spans) {
    if (span.offset < at || span.offset + span.length > points.length) continue
    view.append(points.slice(at, span.offset).join(''))
    const type = String(span.entity.type)
    view.append(h('mark', { class: `entity entity-${type.toLowerCase().replace(/[^a-z_]/g, '')}`, title: `${type}: ${String(span.entity.name)}` },
      points.slice(span.offset, span.offset + span.length).join(''), h('span', { class: 'entity-type' }, type)))
    at = span.offset + span.length
  }
  view.append(points.slice(at).join(''))
  return view
}

const runAnalyze = operation('analyze')
$('#analyze-form').addEventListener('submit', (event) => {
  event.preventDefault()
  runAnalyze(async (signal) => {
    const value = $('#analyze-text').value
    if (value.trim() === '') throw localProblem('Nothing to analyse', 'Type or paste some text first.')
    const analyses = [...document.querySelectorAll('input[name=analysis]:checked')].map(input => input.value)
    if (analyses.length === 0) throw localProblem('No analysis chosen', 'Choose at least one analysis.')
    const doc = { value }
    const language = $('#analyze-language').value.trim()
    if (language !== '') doc.language = language
    const answer = await api('POST', '/language/analyze', { document: doc, analyses }, signal)
    const parts = []
    if (answer.sentiment) {
      const s = answer.sentiment
      const translated = s.meta?.translated === 'true' || s.meta?.translated === true
      parts.push(h('section', { class: 'analysis', 'data-analysis': 'sentiment' }, h('h3', {}, 'Sentiment'),
        h('p', { class: 'big' }, h('span', { class: `sentiment sentiment-${String(s.sentiment)}` }, String(s.sentiment))),
        h('p', { class: 'score' }, h('span', { 'aria-hidden': 'true' }, '−1 '),
          meter(s.score, 'Sentiment score from −1 to 1', { min: -1, max: 1, low: -0.25, high: 0.25, optimum: 1 }),
          h('span', { 'aria-hidden': 'true' }, ' +1')),
        h('p', { class: 'hint' }, `Score ${s.score.toFixed(2)}, magnitude ${Number(s.magnitude).toFixed(2)}, analysed in ${languageName(String(s.language))}` +
          (translated ? ` (translated from ${languageName(String(s.meta?.source_language ?? '?'))} first)` : '') + '.')))
    }
    if (answer.entities) {
      const entities = Array.isArray(answer.entities.entities) ? answer.entities.entities : []
      parts.push(h('section', { class: 'analysis', 'data-analysis': 'entities' }, h('h3', {}, `Entities (${entities.length})`),
        entityView(value, entities),
        entities.length > 0 && h('div', { class: 'table-scroll' }, h('table', {},
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Name'), h('th', { scope: 'col' }, 'Type'), h('th', { scope: 'col' }, 'Mentions'))),
          h('tbody', {}, entities.map(e => h('tr', {}, h('td', {}, String(e.name)), h('td', {}, String(e.type)), h('td', {}, String(e.mentions)))))))))
    }
    if (answer.moderation) {
      parts.push(h('section', { class: 'analysis', 'data-analysis': 'moderation' }, h('h3', {}, 'Moderation'),
        bars(answer.moderation.categories ?? [], { high: 0.5, optimum: 0 })))
    }
    if (answer.categories) {
      const categories = answer.categories.categories ?? []
      parts.push(h('section', { class: 'analysis', 'data-analysis': 'categories' }, h('h3', {}, 'Categories'),
        categories.length > 0 ? bars(categories, {}) : h('p', { class: 'hint' }, 'No category found.')))
    }
    $('#analyze-output').replaceChildren(h('div', { class: 'analyses' }, parts))
  })
})

renderSession(session())
