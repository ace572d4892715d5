import { describe, expect, it } from 'vitest'
import { traditionalBalance } from '../../../../src/providers/detector/hanzi.js'

describe('traditionalBalance', () => {
  it('is positive for Traditional and negative for Simplified Chinese', () => {
    expect(traditionalBalance('無法開啟檔案，請檢查權限設定。')).toBeGreaterThan(0)
    expect(traditionalBalance('无法打开文件，请检查权限设置。')).toBeLessThan(0)
  })

  it('is 0 when only characters shared by both forms appear', () => {
    expect(traditionalBalance('中文文本')).toBe(0)
    expect(traditionalBalance('plain Latin text')).toBe(0)
  })
})
