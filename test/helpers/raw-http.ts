/** An HTTP request whose request target is sent byte for byte: app.inject and fetch drop what follows a "#". */
import { request as httpRequest } from 'node:http'

export interface RawRequest {
  method?: string
  /** The request target as sent, "#" and all. */
  url: string
  headers?: Record<string, string>
  /** A string as is; an object as JSON (with its Content-Type unless given). */
  payload?: string | object
}

/** Sends one request to 127.0.0.1:port; resolves with the status and the body as text. */
export async function sendRaw (port: number, { method = 'GET', url, headers = {}, payload }: RawRequest): Promise<{ status: number, body: string }> {
  const body = payload === undefined ? undefined : typeof payload === 'string' ? payload : JSON.stringify(payload)
  const type = typeof payload === 'object' ? { 'content-type': 'application/json' } : {}
  return await new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path: url, headers: { ...type, ...headers } }, res => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { text += chunk })
      res.on('end', () => { resolve({ status: res.statusCode ?? 0, body: text }) })
    })
    req.on('error', reject)
    req.end(body)
  })
}
