/**
 * Preloaded into a service by bench/hub-counts.ts (`bun --preload`): counts this thread's JSON.parse and
 * JSON.stringify calls on texts of 1 KiB or more (a save's outputs model, its digest, a push; not the small
 * rows) and their characters, and prints them as one `json-counts {…}` line on SIGUSR2.
 */
const MIN_CHARS = 1024;
const counts = { parse: 0, parseChars: 0, stringify: 0, stringifyChars: 0 };
const parse = JSON.parse;
const stringify = JSON.stringify;

JSON.parse = ((text: string, reviver?: (key: string, value: unknown) => unknown) => {
  if (typeof text === "string" && text.length >= MIN_CHARS) {
    counts.parse++;
    counts.parseChars += text.length;
  }
  return parse(text, reviver);
}) as typeof JSON.parse;

JSON.stringify = ((value: unknown, replacer?: never, space?: string | number) => {
  const text = stringify(value, replacer, space);
  if (typeof text === "string" && text.length >= MIN_CHARS) {
    counts.stringify++;
    counts.stringifyChars += text.length;
  }
  return text;
}) as typeof JSON.stringify;

process.on("SIGUSR2", () => console.log(`json-counts ${stringify(counts)}`));
