/**
 * The capture-health section's strings, one table per language (English first: the i18n catalogue's source), keyed
 * by language tag so both this branch's map languages (zh) and the five of the page catalogue (zh-Hans, zh-Hant, ko) find theirs.
 */

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

const TABLES: Record<string, HealthStrings> = {
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
  "zh-Hant": {
    heading: "擷取狀態",
    none: "還沒有收到存檔：請安裝下方的擷取設定，然後在遊戲裡打開 MySekai。",
    lastSave: "最新存檔",
    source: { upload: "上傳（擷取模組）", report: "報告" },
    region: "伺服器",
    regionUnknown: "未識別（擷取未帶遊戲網域）",
    state: { full: "完整刷新", partial: "部分刷新（沒有採集地圖）", drawing: "正在繪製" },
    partialFix: "請從標題畫面重新進入 MySekai，取得完整刷新。",
    lastFailure: "最近失敗",
    noFailure: "無",
    failure: { wrongKey: "金鑰不對（無法用本伺服器的金鑰解密）", junk: "不是 MySekai 存檔", harvest: "採集紀錄無法讀取", other: "無法讀取" },
  },
  ko: {
    heading: "캡처 상태",
    none: "아직 받은 세이브가 없습니다. 아래 캡처 설정을 설치하고 게임에서 마이세카이를 여세요.",
    lastSave: "최근 세이브",
    source: { upload: "업로드(캡처 모듈)", report: "리포트" },
    region: "서버",
    regionUnknown: "알 수 없음(캡처에 게임 호스트가 없음)",
    state: { full: "전체 갱신", partial: "부분 갱신(채집 맵 없음)", drawing: "그리는 중" },
    partialFix: "타이틀 화면에서 마이세카이를 다시 열면 전체 갱신이 됩니다.",
    lastFailure: "최근 실패",
    noFailure: "없음",
    failure: { wrongKey: "키가 다릅니다(이 서버의 키로 복호화되지 않음)", junk: "마이세카이 세이브가 아닙니다", harvest: "채집 기록을 읽을 수 없습니다", other: "읽을 수 없습니다" },
  },
};

/** The table of a language tag; English for one without its own. */
export function healthStrings(locale: string): HealthStrings {
  return TABLES[locale] ?? TABLES[locale === "zh-Hans" ? "zh" : "en"]!;
}

/** What kind of failure a job's reason names (the reasons of src/save/open.ts and the generate stage). */
export function failureKind(reason: string): FailureKind {
  if (/bad padding|cannot be a save|not a multiple of 16|implausible/i.test(reason)) return "wrongKey";
  if (/not MessagePack|not a MySekai save|empty body|junk/i.test(reason)) return "junk";
  if (/harvest/i.test(reason)) return "harvest";
  return "other";
}
