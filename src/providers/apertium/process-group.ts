/**
 * A pipeline's processes: the mode's shell pipeline started in a process group of its own, every
 * stage watched, and the whole group killed at once.
 *
 * The shell runs the stages as a background job and kills its whole process group as soon as any
 * of them exits (a CHLD trap), so a stage that crashes or is killed ends the pipeline at once
 * instead of leaving it silent until the timeout.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import type { Socket } from 'node:net'

/**
 * The shell around a mode's pipeline: the stages run as a background job (its first stage keeps
 * our stdin: `0<&0`, or bash would give it /dev/null) and the first stage to exit, for any reason,
 * kills the whole group (`kill 0`), which closes our pipes and tells us at once.
 */
function watchedScript (script: string): string {
  return `trap 'kill -KILL 0' CHLD\n0<&0 ${script} &\nwait\n`
}

/** Starts the NUL-flushing `script` of `mode` as the leader of a process group of its own. */
export function spawnPipeline (mode: string, script: string): ChildProcessWithoutNullStreams {
  // $1 is the generator flag: -n leaves unknown words unmarked (no * # @); $2 the tagger flag.
  // --norc: with a socket as stdin and SHLVL unset or 0 (a service manager, a container), bash
  // takes itself for a remote shell and runs ~/.bashrc, whatever it does or waits for, on every start
  return spawn('bash', ['--norc', '-c', watchedScript(script), `apertium-${mode}`, '-n', ''], {
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe']
  })
}

/** Kills the whole group (bash and every stage) and drops our pipes to it. */
export function killGroup (child: ChildProcessWithoutNullStreams): void {
  try {
    // negative pid: the whole group (bash and every stage), spawned detached as its leader
    process.kill(-child.pid!, 'SIGKILL')
  } catch {}
  child.stdin.destroy()
  child.stdout.destroy()
  child.stderr.destroy()
}

/** An idle pipeline must not keep Node's event loop alive; a busy one must. */
export function keepAlive (child: ChildProcessWithoutNullStreams, active: boolean): void {
  for (const handle of [child, child.stdin as unknown as Socket, child.stdout as unknown as Socket, child.stderr as unknown as Socket]) {
    if (active) handle.ref()
    else handle.unref()
  }
}
