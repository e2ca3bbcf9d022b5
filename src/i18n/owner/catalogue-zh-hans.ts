/** `catalogue update` 和 `catalogue show` 对站长说的话，简体中文。 */
import { mb, type CatalogueMessages } from "./catalogue-en.ts";

export const catalogueZhHans: CatalogueMessages = {
  badArgument: (arg) => `不是来源：${JSON.stringify(arg.slice(0, 80))}（应为 <region>=<folder|url>，region 是 jp、en、cn、tw、kr 之一；只写服务器代码须加 --fetch）`,
  noSources: "至少写一个服务器：<region>=<folder|url>，或 --fetch",
  noFolder: (address) => `${address}：没有这个文件夹，也不是有效的 http(s) URL`,
  missing: (file) => `缺少 ${file}：不接受不完整的来源`,
  empty: (file) => `${file} 没有任何行：不接受不完整的来源`,
  notJson: (file) => `${file} 不是有效的 JSON（是否被截断？）`,
  notRows: (file) => `${file} 不是带数字 id 的行列表`,
  noDataVersion: "versions.json 里没有 dataVersion",
  tooLarge: (file, cap) => `${file} 超过 ${mb(cap)}`,
  notAFile: (file) => `${file} 不是普通文件`,
  duplicateIds: (file) => `${file} 里同一个 id 出现了两次`,
  httpStatus: (file, status) => `${file}：服务器返回 HTTP ${status}`,
  timedOut: (file, seconds) => `${file}：${seconds} 秒内没有收到完整的响应`,
  unreachable: (file, reason) => `${file}：${reason.slice(0, 160)}`,
  refused: (region, address, reason) => `${region}（${address}）：${reason}\n没有任何改动：继续使用当前的资源目录`,
  generatorFailed: (reason) => `无法用这份主数据生成资源目录：${reason.slice(0, 300)}\n没有任何改动：继续使用当前的资源目录`,
  storedMalformed: (reason) => `已保存的更新无法读取（${reason}）；这次更新会替换它`,
  loaded: (region, version, address) => `${region}：主数据 ${version}，来自 ${address}`,
  added: (c) =>
    `新增 ${c.resources} 种资源、${c.sites} 个区域、${c.phenomena} 种天气、${c.harvestFixtures} 种采集点、${c.parties} 个生日派对、${c.songTitles} 个歌曲名`,
  glyphsMissing: (chars) =>
    `自带的地图字体缺少新名字中的 ${[...chars].length} 个字（${[...chars].slice(0, 40).join("")}）：PNG 地图画不出它们（留空），直到新版本带来包含它们的字体；summary.json、rare_resources.txt 和推送里是完整的`,
  whenUsed: "已保存：正在运行的服务一分钟内开始使用（集群的每个进程都会），新启动的立即使用",
  showBuiltIn: (region, version) => `${region}：内置，主数据 ${version}`,
  showUpdated: (region, version, address, at) => `${region}：${at} 更新，主数据 ${version}，来自 ${address}`,
  showCounts: (resources, titles) => `站长的更新在内置资源目录之外新增了 ${resources} 种资源和 ${titles} 首歌曲`,
};
