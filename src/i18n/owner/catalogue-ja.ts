/** `catalogue update` と `catalogue show` がオーナーに伝えること、日本語。 */
import { mb, type CatalogueMessages } from "./catalogue-en.ts";

export const catalogueJa: CatalogueMessages = {
  badArgument: (arg) => `ソースではありません：${JSON.stringify(arg.slice(0, 80))}（<region>=<folder|url> の形で、region は jp・en・cn・tw・kr のいずれか。region だけなら --fetch が必要）`,
  noSources: "サーバーを一つ以上指定してください：<region>=<folder|url>、または --fetch",
  noFolder: (address) => `${address}：そのフォルダはなく、有効な http(s) URL でもありません`,
  missing: (file) => `${file} がありません：不完全なソースは受け付けません`,
  empty: (file) => `${file} に行がありません：不完全なソースは受け付けません`,
  notJson: (file) => `${file} は有効な JSON ではありません（途中で切れている？）`,
  notRows: (file) => `${file} は数値 id を持つ行のリストではありません`,
  noDataVersion: "versions.json に dataVersion がありません",
  tooLarge: (file, cap) => `${file} が ${mb(cap)} を超えています`,
  notAFile: (file) => `${file} は通常のファイルではありません`,
  duplicateIds: (file) => `${file} に同じ id が二度あります`,
  httpStatus: (file, status) => `${file}：サーバーの応答は HTTP ${status} でした`,
  timedOut: (file, seconds) => `${file}：${seconds} 秒以内に完全な応答がありませんでした`,
  unreachable: (file, reason) => `${file}：${reason.slice(0, 160)}`,
  refused: (region, address, reason) => `${region}（${address}）：${reason}\n変更なし：使用中のカタログのままです`,
  generatorFailed: (reason) => `このマスターデータからカタログを作れません：${reason.slice(0, 300)}\n変更なし：使用中のカタログのままです`,
  storedMalformed: (reason) => `保存済みの更新が読めません（${reason}）。今回の更新で置き換えます`,
  loaded: (region, version, address) => `${region}：マスターデータ ${version}（${address}）`,
  added: (c) =>
    `追加：素材 ${c.resources} 種、エリア ${c.sites} 個、天候 ${c.phenomena} 種、採取ポイント ${c.harvestFixtures} 種、誕生日パーティー ${c.parties} 件、楽曲名 ${c.songTitles} 件`,
  glyphsMissing: (chars) =>
    `同梱のマップ用フォントに新しい名前の ${[...chars].length} 文字（${[...chars].slice(0, 40).join("")}）がありません：その文字を含むフォントがリリースされるまで PNG マップでは描けません（空白）。summary.json・rare_resources.txt・通知には完全に入ります`,
  whenUsed: "保存しました：実行中のサービスは 1 分以内に使い始め（ハブの全プロセス）、起動するものはすぐに使います",
  showBuiltIn: (region, version) => `${region}：内蔵、マスターデータ ${version}`,
  showUpdated: (region, version, address, at) => `${region}：${at} に更新、マスターデータ ${version}（${address}）`,
  showCounts: (resources, titles) => `オーナーの更新で内蔵カタログに素材 ${resources} 種と楽曲 ${titles} 曲が加わっています`,
};
