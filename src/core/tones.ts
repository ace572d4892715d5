/** The tones valid for edits, in the order GET /language/edit/tones lists them. */
export const TONES = [
  'none', 'academic', 'admiring', 'amused', 'angry', 'annoyed', 'approving', 'aware', 'confident',
  'confused', 'curious', 'disappointed', 'disapproving', 'eager', 'embarrassed', 'excited', 'fearful',
  'friendly', 'funny', 'grateful', 'joyful', 'loving', 'mournful', 'neutral', 'optimistic',
  'professional', 'relieved', 'remorseful', 'repulsed', 'sad', 'worried', 'surprised', 'sympathetic'
] as const

export type Tone = typeof TONES[number]
