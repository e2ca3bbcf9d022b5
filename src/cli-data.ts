/**
 * Owner commands of the data API: API tokens and players' public reads (src/db/owner/data-access.ts), consumer
 * webhooks (src/db/deliveries/data-webhooks.ts).
 */
import { UsageError, type ParsedCommand } from "./cli-args.ts";
import type { DataAccess, DataWebhookRegistry } from "./store/ports/owner.ts";
import { dataWebhookOrigin, dataWebhookProblem, hasUserinfo } from "./notify/data-webhook.ts";
import { DATA_WEBHOOK_PAYLOADS, type DataWebhookPayload } from "./store/model/deliveries.ts";
import { API_TOKEN_NAME, PLAYER_ID_SHAPE } from "./store/model/owner.ts";

export class DataUsageError extends UsageError {}

export async function apiTokensCommand(access: DataAccess, { name: command, values, positionals: [name] }: ParsedCommand): Promise<number> {
  if (command === "api-tokens list") {
    const tokens = await access.listApiTokens();
    if (tokens.length === 0) console.log("no API tokens");
    for (const token of tokens) console.log(`${token.name}\t${token.players === null ? "every player" : token.players.join(",")}\t${new Date(token.createdAt).toISOString()}`);
    return 0;
  }
  if (!name || !API_TOKEN_NAME.test(name)) throw new DataUsageError("a token name of letters, digits and . _ - is required");
  if (command === "api-tokens revoke") {
    if (!(await access.revokeApiToken(name))) {
      console.error(`no API token named ${name}`);
      return 1;
    }
    console.log(`API token ${name} revoked: it reads nothing from now on`);
    return 0;
  }
  const players = values.players === undefined ? null : String(values.players).split(",").filter((id) => id !== "");
  if (players !== null && (players.length === 0 || !players.every((id) => PLAYER_ID_SHAPE.test(id)))) throw new DataUsageError("--players takes numeric player ids, comma-separated");
  const token = await access.addApiToken(name, players);
  console.log(`API token ${name} (reads ${players === null ? "every player" : players.join(", ")}); it is shown only now:`);
  console.log(token);
  return 0;
}

export async function playerPublicCommand(access: DataAccess, playerId: string | undefined, state: string | undefined): Promise<number> {
  if (!playerId || !PLAYER_ID_SHAPE.test(playerId) || (state !== "on" && state !== "off")) throw new DataUsageError("players public <playerId> on|off");
  await access.setPlayerPublic(playerId, state === "on");
  console.log(`public reads of ${playerId}: ${state}`);
  return 0;
}

export async function dataWebhooksCommand(webhooks: DataWebhookRegistry, { name: command, values, positionals: [value] }: ParsedCommand): Promise<number> {
  if (command === "data-webhooks list") {
    const hooks = await webhooks.list();
    if (hooks.length === 0) console.log("no data webhooks");
    for (const hook of hooks) console.log(`${hook.id}\t${dataWebhookOrigin(hook.url)}/…\t${hook.payload}${hook.checkUrl === null ? "" : " after a check"}\t${hook.bearer ? "with a bearer secret" : "no bearer"}\t${new Date(hook.createdAt).toISOString()}`);
    return 0;
  }
  if (command === "data-webhooks remove") {
    const id = Number(value);
    if (!Number.isSafeInteger(id) || id <= 0) throw new DataUsageError("data-webhooks remove <id> (the id that data-webhooks list shows)");
    if (!(await webhooks.remove(id))) {
      console.error(`no data webhook ${id}`);
      return 1;
    }
    console.log(`data webhook ${id} removed: it is called no more`);
    return 0;
  }
  const problem = value ? dataWebhookProblem(value) : "a URL is required";
  if (problem) throw new DataUsageError(`data-webhooks add <url>: ${problem}`);
  const bearer = values.bearer === undefined ? null : String(values.bearer);
  if (bearer !== null && !/^[\x21-\x7e]{1,512}$/.test(bearer)) throw new DataUsageError("--bearer takes a secret of printable characters without spaces");
  const payload = (values.payload === undefined ? "empty" : String(values.payload)) as DataWebhookPayload;
  if (!DATA_WEBHOOK_PAYLOADS.includes(payload)) throw new DataUsageError("--payload takes raw or json-zstd (without it, the POST is empty)");
  const checkUrl = values["check-url"] === undefined ? null : String(values["check-url"]);
  const checkProblem = checkUrl === null ? null : dataWebhookProblem(checkUrl);
  if (checkProblem) throw new DataUsageError(`--check-url: ${checkProblem}`);
  const id = await webhooks.add(value!, bearer, Date.now(), { payload, checkUrl });
  const carries = payload === "empty" ? "an empty POST" : `the save as ${payload}`;
  console.log(`data webhook ${id} added (${dataWebhookOrigin(value!)}/…): ${carries} after each new save${checkUrl === null ? "" : ", when its check URL answers 200"}`);
  if ([value!, checkUrl].some((url) => url !== null && hasUserinfo(url))) {
    console.log("note: the user:password in the URL is sent as HTTP Basic auth (an Authorization header) with each request; it is hidden from logs, errors and pages like the URL");
  }
  return 0;
}
