/** The capture-health section's strings, one table per map language (English first: the i18n catalogue's source). */
import type { Locale } from "../../maps/catalog.ts";

export type FailureKind = "wrongKey" | "junk" | "harvest" | "other";

interface HealthStrings {
  heading: string;
  none: string;
  lastSave: string;
  source: { upload: string; report: string };
  region: string;
  regionUnknown: string;
  state: { full: string; partial: string; drawing: string };
  partialFix: string;
  lastFailure: string;
  noFailure: string;
  failure: Record<FailureKind, string>;
}

export const HEALTH_STRINGS: Record<Locale, HealthStrings> = {
  en: {
    heading: "Capture health",
    none: "No save received yet: install the capture setup below and open MySekai in the game.",
    lastSave: "Last save",
    source: { upload: "upload (capture module)", report: "report" },
    region: "Server",
    regionUnknown: "not detected (the capture named no game host)",
    state: { full: "full refresh", partial: "partial refresh (no harvest maps)", drawing: "being drawn" },
    partialFix: "Open MySekai again from the title screen for a full refresh.",
    lastFailure: "Last failure",
    noFailure: "none",
    failure: {
      wrongKey: "wrong key: it does not decrypt with this server's key",
      junk: "junk: not a MySekai save",
      harvest: "unreadable harvest records",
      other: "could not be read",
    },
  },
  ja: {
    heading: "キャプチャの状態",
    none: "まだセーブを受け取っていません。下のキャプチャ設定を入れて、ゲームでマイセカイを開いてください。",
    lastSave: "最新のセーブ",
    source: { upload: "アップロード（キャプチャモジュール）", report: "レポート" },
    region: "サーバー",
    regionUnknown: "不明（ゲームのホストが送られていません）",
    state: { full: "全体更新", partial: "部分更新（採集マップなし）", drawing: "描画中" },
    partialFix: "タイトル画面からマイセカイを開き直すと全体更新になります。",
    lastFailure: "最新の失敗",
    noFailure: "なし",
    failure: { wrongKey: "鍵が違います（このサーバーの鍵で復号できません）", junk: "マイセカイのセーブではありません", harvest: "採集データが読めません", other: "読めませんでした" },
  },
  zh: {
    heading: "抓包状态",
    none: "还没有收到存档：请安装下方的抓包配置，然后在游戏里打开 MySekai。",
    lastSave: "最新存档",
    source: { upload: "上传（抓包模块）", report: "报告" },
    region: "服务器",
    regionUnknown: "未识别（抓包未带游戏域名）",
    state: { full: "完整刷新", partial: "部分刷新（没有采集地图）", drawing: "正在绘制" },
    partialFix: "请从标题画面重新进入 MySekai，获取完整刷新。",
    lastFailure: "最近失败",
    noFailure: "无",
    failure: { wrongKey: "密钥不对（无法用本服务器的密钥解密）", junk: "不是 MySekai 存档", harvest: "采集记录无法读取", other: "无法读取" },
  },
};

/** What kind of failure a job's reason names (the reasons of src/save/open.ts and the generate stage). */
export function failureKind(reason: string): FailureKind {
  if (/bad padding|cannot be a save|not a multiple of 16|implausible/i.test(reason)) return "wrongKey";
  if (/not MessagePack|not a MySekai save|empty body|junk/i.test(reason)) return "junk";
  if (/harvest/i.test(reason)) return "harvest";
  return "other";
}
