/** ページの外でオーナーが読む文（起動ログ、CLI）、日本語。 */
import type { OwnerMessages } from "./en.ts";

export const ownerJa: OwnerMessages = {
  pushesTo: (where, why) => `push_map.json にないプレイヤーの通知先：${where}（${why}）`,
  pushesToNoOne: (why) => `push_map.json にないプレイヤーには通知しません（${why}）`,
  pushMapRoutes: (n) => `push_map.json で個別に指定：${n} 人`,
  pushesOff:
    "通知はオフです：通知チャンネルが設定されていません（TELEGRAM_BOT_TOKEN と TELEGRAM_CHAT_ID、DISCORD_WEBHOOK_URL、ONEBOT_URL、WEBHOOK_URL、または bark_map.json の Bark キーを設定してください）。セーブは引き続きアーカイブされます",
  whyNotifyDefault: "NOTIFY_DEFAULT",
  whyOneChannel: "設定された唯一のチャンネル",
  whyEveryChannel: "設定されたすべてのチャンネル。NOTIFY_DEFAULT で変更できます",
  whyOneBark: "bark_map.json の唯一の Bark 端末",
  whyFallback: "既定のルート。NOTIFY_DEFAULT で変更できます",
  barkLeftOut: "Bark 端末には push_map.json で指定したプレイヤーだけが届きます",
  notConfigured: (channel) => `${channel}（未設定）`,
  at: (what, host) => `${what}（${host}）`,
  defaultRouteName: "（既定のルート）",
  unknownAlias: (alias) => `Bark の別名「${alias}」が bark_map.json にありません`,
  routesToUnconfigured: (channel, who) => `${who} の通知先が ${channel} ですが、${channel} は設定されていません`,
  defaultRouteHint: (configured) => `。既定のルートは NOTIFY_DEFAULT で設定します（設定済み：${configured}）`,
  aliasShadowed: (alias) => `bark_map.json：別名「${alias}」はチャンネル名と同じなので使われません`,
  inAll: (n) => `（全 ${n} 件）`,
  listening: "待ち受け開始",
  shuttingDown: "停止しています",
  stopped: "停止しました",
  noKey: "AES キーが設定されていません（AES_KEY/AES_IV）：セーブは受け付け、キーを待ちます",
  linkKeyChanged: "設定トークンは別のリンクキーで封印されています（LINK_KEY または DATA_DIR/link.key が変わりました）：インストール済みのモジュールは動き続けますが、/setup がリンクを表示するのは設定トークンを新しくしてからです（npm run cli -- setup rotate）",
  sessionsEnded: "オーナーのトークンかリンクキーがセッション開始時のものと違います（または初めて確認する起動です）：オーナーのセッションをすべて終了しました",
  clearTokensSealed: "旧バージョンが平文で保存したリンクとセットアップのトークンを封印しました（そのまま使えます）",
  launchEnv: "起動設定なしで起動しました：npm start と同じく MIMALLOC_PURGE_DELAY=250 を設定してください（README「設定」）",
  cannotStart: (why) => `起動できません：${why}`,
  or: "または",
  endpointUpload: "アップロード",
  setupNeedsAdminToken: "開くには ADMIN_TOKEN を設定してください：未設定の /setup はこのマシンのループバックにしか応えず、HOST はそこで待ち受けていません",
  endpointSetup: "キャプチャ設定（オーナー）",
  endpointReport: "レポート",
  reportDisabled: "レポート：無効（REPORT_ENABLED=0）",
  publicBaseUnreachable: (name, url, kind) =>
    kind === "loopback"
      ? `${name} が ${url}（このマシン自身）です：スマホから届かず、Bark の画像やリンクも開けません。スマホから届くアドレスにして再起動してください`
      : `${name} が ${url}（プライベートネットワークのアドレス）です：同じネットワークにいるときだけスマホから届き、Bark の画像やリンクもそこでしか開けません`,
};
