/** The editing use case; its editors land with POST /language/edit. */
import { NotImplementedError } from '../../errors.js'
import type { Editor } from '../../providers/types.js'

export interface Editing {
  edit: () => Promise<never>
}

/** Answers 501 until the editors are built: never the text unchanged as if edited. */
export function createEditing (_editors: readonly Editor[]): Editing {
  return {
    edit: async () => { throw new NotImplementedError('Editing is not built into this version of the service yet.') }
  }
}
