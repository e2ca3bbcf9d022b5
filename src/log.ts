/** One line per event: `[PREFIX] message key=value ...`. Callers never pass secrets or bodies. */
export type LogPrefix = "UPLOAD" | "REPORT" | "JOB" | "NOTIFY" | "SERVER" | "CONFIG" | "GC";

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

export function logInfo(prefix: LogPrefix, message: string, fields: Record<string, Field> = {}): void {
  console.log(line(prefix, message, fields));
}

export function logWarn(prefix: LogPrefix, message: string, fields: Record<string, Field> = {}): void {
  console.warn(line(prefix, `WARN ${message}`, fields));
}
