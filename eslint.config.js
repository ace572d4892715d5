import neostandard from 'neostandard'

export default [
  ...neostandard({ ts: true, ignores: ['dist/**', '.tools/**', 'bench/out/**', 'bench/corpus/**', 'coverage/**'] })
]
