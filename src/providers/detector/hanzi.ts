/** Tells Traditional from Simplified Chinese by characters that exist in only one of the two forms. */

// Simplified / Traditional pairs of frequent characters; a pair is left out when either form is also common in the other script
const PAIRS = '个個 们們 这這 来來 时時 会會 对對 说說 过過 还還 为為 国國 学學 发發 与與 开開 关關 问問 题題 样樣 点點 应應 ' +
  '当當 体體 实實 现現 电電 话話 书書 长長 东東 门門 车車 见見 马馬 鸟鳥 鱼魚 无無 从從 动動 种種 机機 气氣 进進 义義 ' +
  '经經 头頭 边邊 业業 务務 区區 华華 让讓 认認 识識 设設 计計 号號 码碼 网網 络絡 档檔 资資 讯訊 选選 择擇 单單 显顯 ' +
  '视視 编編 辑輯 储儲 删刪 错錯 误誤 请請 输輸 载載 传傳 递遞 连連 线線 数數 据據 库庫 类類 属屬 标標 签籤 页頁 员員 ' +
  '帐帳 户戶 录錄 变變 换換 转轉 复復 贴貼 寻尋 订訂 阅閱 读讀 写寫 语語 间間 隐隱 状狀 态態 执執 启啟 闭閉 终終 结結 ' +
  '构構 节節 图圖 声聲 简簡 宽寬 层層 级級 组組 织織 处處 软軟 驱驅 装裝 检檢 测測 试試 验驗 证證 权權 键鍵 盘盤 么麼 ' +
  '吗嗎 两兩 将將 纪紀 历歷 报報 议議 论論 调調 远遠 览覽 浏瀏 项項 总總 笔筆 记記 预預 盖蓋 压壓 缩縮 扩擴 欢歡 谢謝 ' +
  '确確 优優 随隨 协協 广廣 产產 价價 专專 术術 艺藝 画畫 联聯 统統 该該 许許 剧劇 岁歲 众眾 际際 队隊 阳陽 阴陰 险險 ' +
  '频頻 颜顏 风風 飞飛 馆館 惊驚 龙龍 条條 维維 护護 纸紙 张張 归歸 亲親 杂雜 难難 离離 乐樂 严嚴 丢丟 丽麗 举舉 买買 ' +
  '卖賣 乱亂 亚亞 仅僅 伟偉 伤傷 侧側 债債 倾傾 儿兒 兴興 养養 内內 册冊 军軍 农農 决決 况況 净淨 减減 创創 别別 剑劍 ' +
  '办辦 劝勸 励勵 劳勞 势勢 厅廳 厌厭 县縣 参參 双雙 叙敘 叹嘆 吓嚇 听聽 响響 团團 园園 围圍 圆圓 圣聖 场場 坏壞 块塊 ' +
  '坚堅 墙牆 壮壯 壳殼 备備 够夠 夸誇 夹夾 夺奪 奋奮 奖獎 妇婦 妈媽 娱娛 孙孫 宁寧 宝寶 审審 宪憲 宫宮 宾賓 导導 寿壽 ' +
  '尔爾 尘塵 尝嘗 岛島 币幣 师師 带帶 帮幫 废廢 异異 弃棄 弹彈 强強 彻徹 径徑 忆憶 怀懷 恋戀 恶惡 悬懸 惧懼 惯慣 愿願 ' +
  '戏戲 战戰 扑撲 扫掃 扬揚 扰擾 抢搶 担擔 拟擬 拥擁 挂掛 挡擋 挤擠 挥揮 损損 摄攝 摆擺 摇搖 敌敵 断斷 旧舊 显顯 晓曉 ' +
  '暂暫 杀殺 杨楊 极極 枪槍 柜櫃 栏欄 树樹 桥橋 梦夢 楼樓 横橫 欧歐 残殘 毕畢 汇匯 汉漢 汤湯 沟溝 没沒 泪淚 泽澤 洁潔 ' +
  '浅淺 济濟 浓濃 涂塗 润潤 涨漲 渐漸 温溫 湾灣 满滿 滚滾 滤濾 灭滅 灯燈 灵靈 灾災 炉爐 烟煙 热熱 爱愛 牵牽 犹猶 独獨 ' +
  '献獻 环環 疗療 监監 矿礦 砖磚 礼禮 祸禍 积積 称稱 稳穩 穷窮 竞競 筑築 粮糧 紧緊 红紅 约約 纯純 纳納 纵縱 纷紛 练練 ' +
  '细細 绑綁 绕繞 绘繪 给給 绝絕 继繼 绩績 绪緒 续續 综綜 绿綠 缓緩 缘緣 罗羅 罚罰 职職 聪聰 肤膚 脑腦 脚腳 脸臉 舰艦 ' +
  '艰艱 荐薦 药藥 获獲 营營 蓝藍 虑慮 虽雖 补補 观觀 规規 觉覺 触觸 讨討 训訓 讲講 访訪 评評 诉訴 词詞 译譯 诗詩 询詢 ' +
  '详詳 课課 谁誰 谈談 谓謂 谱譜 负負 财財 责責 败敗 货貨 质質 购購 费費 贵貴 贸貿 赏賞 赖賴 赛賽 赞贊 赶趕 跃躍 踪蹤 ' +
  '轨軌 轮輪 轴軸 轻輕 较較 辅輔 辆輛 辉輝 辞辭 达達 迁遷 运運 违違 迟遲 适適 逻邏 遗遺 邮郵 释釋 针針 钟鐘 钢鋼 钱錢 ' +
  '铁鐵 银銀 链鏈 销銷 锁鎖 镜鏡 闪閃 闻聞 阔闊 阵陣 阶階 陆陸 陈陳 雾霧 静靜 顶頂 顺順 须須 顾顧 领領 额額 饭飯 驶駛 ' +
  '驾駕 鸡雞 龄齡 钮鈕 窗窗 档檔 储儲'

const SIMPLIFIED = new Set<number>()
const TRADITIONAL = new Set<number>()
for (const pair of PAIRS.split(' ')) {
  const [simplified, traditional] = [...pair]
  if (simplified === undefined || traditional === undefined || simplified === traditional) continue
  SIMPLIFIED.add(simplified.codePointAt(0)!)
  TRADITIONAL.add(traditional.codePointAt(0)!)
}

/** Positive when a text has more Traditional-only than Simplified-only characters, negative for the reverse, 0 when it cannot tell. */
export function traditionalBalance (text: string): number {
  let balance = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x4e00) continue
    if (TRADITIONAL.has(c)) balance++
    else if (SIMPLIFIED.has(c)) balance--
  }
  return balance
}
