/** 站长在页面之外读到的文字（启动日志、命令行），简体中文。 */
import type { OwnerMessages } from "./en.ts";

export const ownerZhHans: OwnerMessages = {
  pushesTo: (where, why) => `不在 push_map.json 里的玩家推送到：${where}（${why}）`,
  pushesToNoOne: (why) => `不在 push_map.json 里的玩家不推送（${why}）`,
  pushMapRoutes: (n) => `push_map.json 单独指定了 ${n} 位玩家`,
  pushesOff:
    "推送已关闭：没有配置任何推送渠道（设置 TELEGRAM_BOT_TOKEN 和 TELEGRAM_CHAT_ID、DISCORD_WEBHOOK_URL、ONEBOT_URL、WEBHOOK_URL，或在 bark_map.json 里写 Bark 密钥）；存档仍会归档",
  whyNotifyDefault: "NOTIFY_DEFAULT",
  whyOneChannel: "唯一配置的渠道",
  whyEveryChannel: "所有已配置的渠道；NOTIFY_DEFAULT 可另设",
  whyOneBark: "bark_map.json 里唯一的 Bark 设备",
  whyFallback: "默认路由；NOTIFY_DEFAULT 可另设",
  barkLeftOut: "Bark 设备只收 push_map.json 指给它的玩家",
  notConfigured: (channel) => `${channel}（未配置）`,
  at: (what, host) => `${what}（${host}）`,
  defaultRouteName: "（默认路由）",
  unknownAlias: (alias) => `Bark 别名“${alias}”不在 bark_map.json 里`,
  routesToUnconfigured: (channel, who) => `${who} 推送到 ${channel}，但 ${channel} 没有配置`,
  defaultRouteHint: (configured) => `；NOTIFY_DEFAULT 设置默认路由（已配置：${configured}）`,
  aliasShadowed: (alias) => `bark_map.json：别名“${alias}”与渠道名相同，永远不会被用到`,
  inAll: (n) => `（共 ${n} 个）`,
  listening: "已开始监听",
  shuttingDown: "正在停止",
  stopped: "已停止",
  noKey: "没有配置 AES 密钥（AES_KEY/AES_IV）：存档会被接收，等待密钥",
  linkKeyChanged: "设置令牌是用另一把链接密钥封存的（LINK_KEY 或 DATA_DIR/link.key 变了）：已安装的模块照常工作，但 /setup 要换新设置令牌后才能显示链接（npm run cli -- setup rotate）",
  sessionsEnded: "站长令牌或链接密钥已不是开启登录时的那个（或这是第一次检查的启动）：所有站长登录已结束",
  clearTokensSealed: "已封存旧版本以明文保存的链接和设置令牌（它们照常可用）",
  launchEnv: "启动时缺少启动设置：请像 npm start 那样设置 MIMALLOC_PURGE_DELAY=250（见 README“配置”）",
  cannotStart: (why) => `无法启动：${why}`,
  or: "或",
  endpointUpload: "上传",
  setupNeedsAdminToken: "要打开它请设置 ADMIN_TOKEN：没设置时 /setup 只回应本机回环地址，而 HOST 没有在那里监听",
  endpointSetup: "抓包设置（站长）",
  endpointReport: "报告",
  reportDisabled: "报告：已关闭（REPORT_ENABLED=0）",
  publicBaseUnreachable: (name, url, kind) =>
    kind === "loopback"
      ? `${name} 是 ${url}，即本机：手机连不上，Bark 的图片和链接也打不开。请改成手机能访问的地址后重启`
      : `${name} 是 ${url}，一个内网地址：只有在同一网络里手机才能访问，Bark 的图片和链接也只在那里能打开`,
};
