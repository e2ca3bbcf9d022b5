/**
 * Owner commands of the data API: API tokens and players' public reads (src/db/owner/data-access.ts), consumer
 * webhooks (src/db/deliveries/data-webhooks.ts).
 */
import { UsageError, type ParsedCommand } from "./cli-args.ts";
import type { DataAccess, DataWebhookRegistry } from "./store/ports/owner.ts";
import { dataWebhookOrigin, dataWebhookProblem, hasUserinfo, PLACEHOLDERS } from "./notify/data-webhook.ts";
import { DATA_WEBHOOK_PAYLOADS, type DataWebhookPayload } from "./store/model/deliveries.ts";
import { API_TOKEN_NAME, PLAYER_ID_SHAPE } from "./store/model/owner.ts";
import { ownerLocaleOf } from "./config/owner-locale.ts";
import { cliMessages } from "./i18n/owner/index.ts";

const c = cliMessages(ownerLocaleOf());

export class DataUsageError extends UsageError {}

export async function apiTokensCommand(access: DataAccess, { name: command, values, positionals: [name] }: ParsedCommand): Promise<number> {
  if (command === "api-tokens list") {
    const tokens = await access.listApiTokens();
    if (tokens.length === 0) console.log(c.noApiTokens);
    for (const token of tokens) console.log(`${token.name}\t${token.players === null ? c.everyPlayer : token.players.join(",")}\t${new Date(token.createdAt).toISOString()}`);
    return 0;
  }
  if (!name || !API_TOKEN_NAME.test(name)) throw new DataUsageError(c.needTokenName);
  if (command === "api-tokens revoke") {
    if (!(await access.revokeApiToken(name))) {
      console.error(c.noSuchToken(name));
      return 1;
    }
    console.log(c.tokenRevoked(name));
    return 0;
  }
  const players = values.players === undefined ? null : String(values.players).split(",").filter((id) => id !== "");
  if (players !== null && (players.length === 0 || !players.every((id) => PLAYER_ID_SHAPE.test(id)))) throw new DataUsageError(c.playersIds);
  const token = await access.addApiToken(name, players);
  console.log(c.tokenAdded(name, players === null ? c.everyPlayer : players.join(", ")));
  console.log(token);
  return 0;
}

export async function playerPublicCommand(access: DataAccess, playerId: string | undefined, state: string | undefined): Promise<number> {
  if (!playerId || !PLAYER_ID_SHAPE.test(playerId) || (state !== "on" && state !== "off")) throw new DataUsageError("players public <playerId> on|off");
  await access.setPlayerPublic(playerId, state === "on");
  console.log(c.publicReads(playerId, state));
  return 0;
}

export async function dataWebhooksCommand(webhooks: DataWebhookRegistry, { name: command, values, positionals: [value] }: ParsedCommand): Promise<number> {
  if (command === "data-webhooks list") {
    const hooks = await webhooks.list();
    if (hooks.length === 0) console.log(c.noWebhooks);
    for (const hook of hooks) console.log(`${hook.id}\t${dataWebhookOrigin(hook.url)}/…\t${hook.payload}${hook.checkUrl === null ? "" : c.webhookChecked}\t${c.webhookBearer(Boolean(hook.bearer))}\t${new Date(hook.createdAt).toISOString()}`);
    return 0;
  }
  if (command === "data-webhooks remove") {
    const id = Number(value);
    if (!Number.isSafeInteger(id) || id <= 0) throw new DataUsageError(`data-webhooks remove <id> (${c.webhookRemoveUsage})`);
    if (!(await webhooks.remove(id))) {
      console.error(c.noSuchWebhook(id));
      return 1;
    }
    console.log(c.webhookRemoved(id));
    return 0;
  }
  const problem = value ? dataWebhookProblem(value) : "missing";
  if (problem) throw new DataUsageError(`data-webhooks add <url>: ${c.webhookProblem(problem, PLACEHOLDERS.join(", "))}`);
  const bearer = values.bearer === undefined ? null : String(values.bearer);
  if (bearer !== null && !/^[\x21-\x7e]{1,512}$/.test(bearer)) throw new DataUsageError(c.bearerBad);
  const payload = (values.payload === undefined ? "empty" : String(values.payload)) as DataWebhookPayload;
  if (!DATA_WEBHOOK_PAYLOADS.includes(payload)) throw new DataUsageError(c.payloadBad);
  const checkUrl = values["check-url"] === undefined ? null : String(values["check-url"]);
  const checkProblem = checkUrl === null ? null : dataWebhookProblem(checkUrl);
  if (checkProblem) throw new DataUsageError(`--check-url: ${c.webhookProblem(checkProblem, PLACEHOLDERS.join(", "))}`);
  const id = await webhooks.add(value!, bearer, Date.now(), { payload, checkUrl });
  console.log(c.webhookAdded(id, dataWebhookOrigin(value!), payload, checkUrl !== null));
  if ([value!, checkUrl].some((url) => url !== null && hasUserinfo(url))) {
    console.log(c.userinfoNote);
  }
  return 0;
}
