/**
 * One line per event: `[PREFIX] message key=value ...`. Callers never pass secrets or bodies.
 * What the owner reads once (the start, why it cannot start, the CLI) follows the owner's language
 * (src/i18n/owner); the lines of each save, upload and push stay in English: operators and their tools grep them,
 * their error fields are the raw text the status page shows behind its translated kind, and one log reads the same
 * whoever started the process.
 */
export type LogPrefix = "UPLOAD" | "REPORT" | "JOB" | "NOTIFY" | "SERVER" | "CONFIG" | "GC" | "API" | "CATALOGUE";

type Field = string | number | boolean | null | undefined;

function formatValue(value: Field): string {
  const text = String(value);
  return /[\s"=]/.test(text) ? JSON.stringify(text) : text;
}

function line(prefix: LogPrefix, message: string, fields: Record<string, Field>): string {
  const parts = Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${formatValue(value)}`);
  return [`[${prefix}]`, message, ...parts].join(" ");
}

interface Entry {
  warn: boolean;
  prefix: LogPrefix;
  message: string;
  fields: Record<string, Field>;
}

/**
 * Lines are formatted and written after the current turn of the event loop, so a request's answer goes out
 * first (formatting and writing a line costs ~0.1 ms, a tenth of an upload's accept besides its fsync).
 * Whatever is queued is written at exit.
 */
const queued: Entry[] = [];

function enqueue(entry: Entry): void {
  if (queued.push(entry) === 1) setImmediate(flushLog);
}

/** Where lines go: stdout for info, stderr for warnings; an in-process test harness may take them instead. */
type Sink = (text: string, warn: boolean) => void;
const consoleSink: Sink = (text, warn) => (warn ? console.warn(text) : console.log(text));
let sink: Sink = consoleSink;

/** Sends every line to `next` instead of the console (null: back to the console). */
export function setLogSink(next: Sink | null): void {
  flushLog();
  sink = next ?? consoleSink;
}

/** Writes the queued lines now, in order. */
export function flushLog(): void {
  for (const { warn, prefix, message, fields } of queued.splice(0)) sink(line(prefix, warn ? `WARN ${message}` : message, fields), warn);
}
process.on("exit", flushLog);

export function logInfo(prefix: LogPrefix, message: string, fields: Record<string, Field> = {}): void {
  enqueue({ warn: false, prefix, message, fields });
}

export function logWarn(prefix: LogPrefix, message: string, fields: Record<string, Field> = {}): void {
  enqueue({ warn: true, prefix, message, fields });
}

/** A fault of ours (an unhandled error): written at once, to stderr, untagged. */
export function logError(prefix: LogPrefix, message: string, fields: Record<string, Field> = {}): void {
  flushLog();
  sink(line(prefix, message, fields), true);
}
