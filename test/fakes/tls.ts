/** A throwaway CA and a server certificate for 127.0.0.1/localhost, made with openssl at test time in a temp dir. */
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

export interface TestTls {
  /** The temp dir holding every file (removed by cleanup). */
  dir: string
  /** The CA certificate (PEM) and its file, for `ca` options and NODE_EXTRA_CA_CERTS. */
  ca: string
  caPath: string
  /** The server's key and certificate (PEM), for https.createServer. */
  key: string
  cert: string
  cleanup: () => Promise<void>
}

/** Makes a CA (valid one day) and a 127.0.0.1/localhost server certificate it signed; EC keys, as they are quick to make. */
export async function createTestTls (): Promise<TestTls> {
  const dir = await mkdtemp(join(tmpdir(), 'test-tls-'))
  const file = (name: string): string => join(dir, name)
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
  try {
    await run('openssl', ['req', '-x509', ...ec, '-keyout', file('ca.key'), '-out', file('ca.pem'), '-days', '1',
      '-subj', '/CN=Language service test CA',
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'])
    await run('openssl', ['req', ...ec, '-keyout', file('server.key'), '-out', file('server.csr'), '-subj', '/CN=localhost'])
    await writeFile(file('server.ext'), [
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      'basicConstraints=critical,CA:FALSE',
      'keyUsage=critical,digitalSignature',
      'extendedKeyUsage=serverAuth'
    ].join('\n') + '\n')
    await run('openssl', ['x509', '-req', '-in', file('server.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'),
      '-set_serial', '0x' + Date.now().toString(16), '-days', '1', '-out', file('server.pem'), '-extfile', file('server.ext')])
    const [ca, key, cert] = await Promise.all(['ca.pem', 'server.key', 'server.pem'].map(async name => await readFile(file(name), 'utf8')))
    return {
      dir,
      ca: ca!,
      caPath: file('ca.pem'),
      key: key!,
      cert: cert!,
      cleanup: async () => { await rm(dir, { recursive: true, force: true }) }
    }
  } catch (err) {
    await rm(dir, { recursive: true, force: true })
    throw err
  }
}
