/**
 * A local HTTP server serving master-data folders as raw GitHub does (GET <base>/<file>.json; 404 for a file it
 * lacks), for `catalogue update` from a URL. `override` answers a path its own way (a broken source, or a promise that never settles: no answer).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

export const MASTER_DATA_FIXTURES = join(import.meta.dir, "../fixtures/master-data");

export interface MasterDataServer {
  url: string;
  requests: string[];
  stop: () => void;
}

export function serveMasterData(root = MASTER_DATA_FIXTURES, override: (path: string) => Response | Promise<Response> | undefined = () => undefined): MasterDataServer {
  const requests: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      requests.push(path);
      const answer = override(path);
      if (answer) return answer;
      const file = join(root, path);
      if (path.includes("..") || !path.endsWith(".json") || !existsSync(file)) return new Response("Not Found", { status: 404 });
      return new Response(Bun.file(file));
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, requests, stop: () => void server.stop(true) };
}
