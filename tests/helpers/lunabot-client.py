"""lunabot's gameapi calls as lunabot makes them (src/plugins/sekai/gameapi.py `request_gameapi`, and
mysekai.py `msr_auto_push`): one aiohttp session, Bearer token, Accept-Encoding: zstd, `json=` bodies on PUT and
on GET. Prints what lunabot would read, as JSON, for tests/server/lunabot-client.test.ts.

usage: lunabot-client.py <base url> <token> <uid> [<uid> ...]
"""
import asyncio
import json
import sys

import aiohttp
import zstandard


async def request_gameapi(session, token, url, method="GET", **kwargs):
    headers = {"Authorization": f"Bearer {token}", "Accept-Encoding": "zstd"}
    async with session.request(method, url, headers=headers, verify_ssl=False, **kwargs) as resp:
        body = await resp.read()
        # aiohttp 3.8 (Debian's) passes zstd through; the aiohttp lunabot runs with zstd decodes it.
        if resp.headers.get("Content-Encoding") == "zstd":
            body = zstandard.ZstdDecompressor().decompressobj().decompress(body)
        if resp.status != 200:
            return {"status": resp.status, "detail": body.decode("utf-8", "replace")}
        return {"status": 200, "json": json.loads(body)}


async def main():
    base, token, uids = sys.argv[1], sys.argv[2], sys.argv[3:]
    uid_modes = [(uid, "latest") for uid in uids]
    out = {}
    async with aiohttp.ClientSession() as session:
        # msr_auto_push, twice (its loop): the subscription PUT, then the upload-time GET with the same json=.
        for round_ in (1, 2):
            out[f"put{round_}"] = await request_gameapi(session, token, f"{base}/api/jp/mysekai/update_msr_sub", json=uid_modes, method="PUT")
            out[f"get{round_}"] = await request_gameapi(session, token, f"{base}/api/jp/mysekai/upload_times", json=uid_modes)
        # Older lunabots: the plain GET.
        out["plain"] = await request_gameapi(session, token, f"{base}/api/jp/mysekai/upload_times")
        # The save read that follows a new upload time (mysekai_api_url).
        read = await request_gameapi(session, token, f"{base}/api/jp/user/{uids[0]}/mysekai?mode=local&filter=upload_time")
        out["read"] = read
    print(json.dumps(out))


asyncio.run(main())
