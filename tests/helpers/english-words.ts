/**
 * The check the five-language tests hold pages, the start log and the CLI to: no English word left in a Chinese,
 * Japanese or Korean text but the names that stay as they are.
 */

/**
 * ASCII words a translated page may show: names (of the service's world, the apps, the channels, the tools),
 * formats. Words in capitals (acronyms, setting names, units, regions) and anything with a "/" (URLs, paths) pass.
 */
export const NAMES = new Set(["Mizuki" /* the player's name, in the page's title */, "MySekai", "iOS", "Surge", "Shadowrocket", "Loon", "Quantumult", "Stash", "Reqable", "ProxyPin", "Discord", "OneBot", "Webhook", "Bark", "gzip", "br", "zstd", "deflate", "env"]);

/** ASCII words of the text that are neither names, capitals, nor parts of a URL or path. */
export function englishWords(text: string): string[] {
  const words = text
    .split(/\s+/)
    .filter((chunk) => !chunk.includes("/"))
    .flatMap((chunk) => chunk.match(/[A-Za-z]{2,}/g) ?? []);
  return [...new Set(words.filter((word) => !NAMES.has(word) && word !== word.toUpperCase()))];
}
