/** 站長在頁面之外讀到的文字（啟動日誌、命令列），繁體中文。 */
import type { OwnerMessages } from "./en.ts";

export const ownerZhHant: OwnerMessages = {
  pushesTo: (where, why) => `不在 push_map.json 裡的玩家推送到：${where}（${why}）`,
  pushesToNoOne: (why) => `不在 push_map.json 裡的玩家不推送（${why}）`,
  pushMapRoutes: (n) => `push_map.json 個別指定了 ${n} 位玩家`,
  pushesOff:
    "推送已關閉：沒有設定任何推送管道（設定 TELEGRAM_BOT_TOKEN 和 TELEGRAM_CHAT_ID、DISCORD_WEBHOOK_URL、ONEBOT_URL、WEBHOOK_URL，或在 bark_map.json 裡寫 Bark 金鑰）；存檔仍會歸檔",
  whyNotifyDefault: "NOTIFY_DEFAULT",
  whyOneChannel: "唯一設定的管道",
  whyEveryChannel: "所有已設定的管道；NOTIFY_DEFAULT 可另設",
  whyOneBark: "bark_map.json 裡唯一的 Bark 裝置",
  whyFallback: "預設路由；NOTIFY_DEFAULT 可另設",
  barkLeftOut: "Bark 裝置只收 push_map.json 指給它的玩家",
  notConfigured: (channel) => `${channel}（未設定）`,
  at: (what, host) => `${what}（${host}）`,
  defaultRouteName: "（預設路由）",
  unknownAlias: (alias) => `Bark 別名「${alias}」不在 bark_map.json 裡`,
  routesToUnconfigured: (channel, who) => `${who} 推送到 ${channel}，但 ${channel} 沒有設定`,
  defaultRouteHint: (configured) => `；NOTIFY_DEFAULT 設定預設路由（已設定：${configured}）`,
  aliasShadowed: (alias) => `bark_map.json：別名「${alias}」與管道名稱相同，永遠不會被用到`,
  inAll: (n) => `（共 ${n} 個）`,
  listening: "已開始監聽",
  shuttingDown: "正在停止",
  stopped: "已停止",
  noKey: "沒有設定 AES 金鑰（AES_KEY/AES_IV）：存檔會被接收，等待金鑰",
  linkKeyChanged: "設定權杖是用另一把連結金鑰封存的（LINK_KEY 或 DATA_DIR/link.key 變了）：已安裝的模組照常運作，但 /setup 要換新設定權杖後才能顯示連結（npm run cli -- setup rotate）",
  sessionsEnded: "站長權杖或連結金鑰已不是開啟登入時的那個（或這是第一次檢查的啟動）：所有站長登入已結束",
  clearTokensSealed: "已封存舊版本以明文儲存的連結和設定權杖（它們照常可用）",
  launchEnv: "啟動時缺少啟動設定：請像 npm start 那樣設定 MIMALLOC_PURGE_DELAY=250（見 README「設定」）",
  cannotStart: (why) => `無法啟動：${why}`,
  or: "或",
  endpointUpload: "上傳",
  setupNeedsAdminToken: "要開啟它請設定 ADMIN_TOKEN：沒設定時 /setup 只回應本機回送位址，而 HOST 沒有在那裡監聽",
  endpointSetup: "擷取設定（站長）",
  endpointReport: "報告",
  reportDisabled: "報告：已關閉（REPORT_ENABLED=0）",
  publicBaseUnreachable: (name, url, kind) =>
    kind === "loopback"
      ? `${name} 是 ${url}，即本機：手機連不上，Bark 的圖片和連結也打不開。請改成手機能連到的位址後重新啟動`
      : `${name} 是 ${url}，一個內網位址：只有在同一網路裡手機才能連到，Bark 的圖片和連結也只在那裡能開啟`,
};
