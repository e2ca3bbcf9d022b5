/** `catalogue update` 和 `catalogue show` 對站長說的話，繁體中文。 */
import { mb, type CatalogueMessages } from "./catalogue-en.ts";

export const catalogueZhHant: CatalogueMessages = {
  badArgument: (arg) => `不是來源：${JSON.stringify(arg.slice(0, 80))}（應為 <region>=<folder|url>，region 是 jp、en、cn、tw、kr 之一；只寫伺服器代碼須加 --fetch）`,
  noSources: "至少寫一個伺服器：<region>=<folder|url>，或 --fetch",
  noFolder: (address) => `${address}：沒有這個資料夾，也不是有效的 http(s) URL`,
  missing: (file) => `缺少 ${file}：不接受不完整的來源`,
  empty: (file) => `${file} 沒有任何列：不接受不完整的來源`,
  notJson: (file) => `${file} 不是有效的 JSON（是否被截斷？）`,
  notRows: (file) => `${file} 不是帶數字 id 的列清單`,
  noDataVersion: "versions.json 裡沒有 dataVersion",
  tooLarge: (file, cap) => `${file} 超過 ${mb(cap)}`,
  notAFile: (file) => `${file} 不是一般檔案`,
  duplicateIds: (file) => `${file} 裡同一個 id 出現了兩次`,
  httpStatus: (file, status) => `${file}：伺服器回應 HTTP ${status}`,
  timedOut: (file, seconds) => `${file}：${seconds} 秒內沒有收到完整的回應`,
  unreachable: (file, reason) => `${file}：${reason.slice(0, 160)}`,
  refused: (region, address, reason) => `${region}（${address}）：${reason}\n沒有任何變更：繼續使用目前的資源目錄`,
  generatorFailed: (reason) => `無法用這份主資料產生資源目錄：${reason.slice(0, 300)}\n沒有任何變更：繼續使用目前的資源目錄`,
  storedMalformed: (reason) => `已儲存的更新無法讀取（${reason}）；這次更新會取代它`,
  loaded: (region, version, address) => `${region}：主資料 ${version}，來自 ${address}`,
  added: (c) =>
    `新增 ${c.resources} 種資源、${c.sites} 個區域、${c.phenomena} 種天氣、${c.harvestFixtures} 種採集點、${c.parties} 個生日派對、${c.songTitles} 個歌曲名稱`,
  glyphsMissing: (chars) =>
    `內建的地圖字型缺少新名稱中的 ${[...chars].length} 個字（${[...chars].slice(0, 40).join("")}）：PNG 地圖畫不出它們（留白），直到新版本帶來包含它們的字型；summary.json、rare_resources.txt 和推播裡是完整的`,
  whenUsed: "已儲存：執行中的服務一分鐘內開始使用（叢集的每個程序都會），新啟動的立即使用",
  showBuiltIn: (region, version) => `${region}：內建，主資料 ${version}`,
  showUpdated: (region, version, address, at) => `${region}：${at} 更新，主資料 ${version}，來自 ${address}`,
  showCounts: (resources, titles) => `站長的更新在內建資源目錄之外新增了 ${resources} 種資源和 ${titles} 首歌曲`,
};
