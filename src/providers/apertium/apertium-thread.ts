/**
 * The Apertium translator in a thread of its own (apertium-thread-main.ts), reached over the channel:
 * its pipelines start, and its streams are encoded, written, read and decoded there. Starting a
 * pipeline forks the whole process (25 ms at 800 MB, far more for a larger heap, and more again
 * under a profiler), and a long document's stream takes tens of milliseconds to encode and decode;
 * neither holds the event loop that answers every other request. The pipelines' process groups
 * are reported here, so that they are killed with this process however it ends (a thread's own
 * exit handlers do not run when the process exits).
 */
import { keptUntilFailed } from '../../runtime/channel.js'
import { ServiceThread } from '../../runtime/service-thread.js'
import type { LanguagePair, Translator } from '../../core/ports.js'
import type { ApertiumOptions } from './index.js'

export function createApertiumThread (options: ApertiumOptions = {}): Translator {
  let groups: number[] = []
  const killGroups = (): void => {
    for (const group of groups) {
      try {
        process.kill(-group, 'SIGKILL')
      } catch {
        // already gone
      }
    }
    groups = []
  }
  const thread = new ServiceThread({
    from: import.meta.url,
    name: './apertium-thread-main',
    label: 'apertium',
    data: options,
    onNotice: notice => { groups = (notice as { processGroups: number[] }).processGroups },
    // a thread that died leaves its pipelines behind: nothing else would stop them
    onExit: killGroups
  })
  process.on('exit', killGroups)
  return {
    name: 'apertium',
    supportsFormality: () => false,
    languages: keptUntilFailed(async () => await thread.call<LanguagePair[]>('languages', [])),
    translate: async (call, signal) => await thread.call<string[]>('translate', [call], signal),
    ready: async () => { await thread.call('ready', []) },
    async close () {
      try {
        if (thread.running()) await thread.call('close', [])
      } finally {
        process.off('exit', killGroups)
        killGroups()
        await thread.close()
      }
    }
  }
}
