/** The tones valid for edits: SPEC.md set C, in its order. */
export const TONES = [
  'none', 'academic', 'admiring', 'amused', 'angry', 'annoyed', 'approving', 'aware', 'confident',
  'confused', 'curious', 'disappointed', 'disapproving', 'eager', 'embarrassed', 'excited', 'fearful',
  'friendly', 'funny', 'grateful', 'joyful', 'loving', 'mournful', 'neutral', 'optimistic',
  'professional', 'relieved', 'remorseful', 'repulsed', 'sad', 'worried', 'surprised', 'sympathetic'
] as const

export type Tone = typeof TONES[number]
