"""The metrics and health pieces on their own: route labels, the REST trace (a real aiohttp server
answering 429 and 502), and /readyz answering 503 until every check passes."""

from __future__ import annotations

import socket

import aiohttp
from aiohttp import web
from prometheus_client import REGISTRY

from bot.adapter.observe import discord_trace, route_template
from bot.ops.health import Readiness
from bot.ops.http import OpsServer


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_route_templates_carry_no_ids_or_tokens() -> None:
    assert route_template("POST", "/api/v10/channels/123456789012345678/messages") == (
        "POST /channels/{id}/messages"
    )
    token = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5OmFiY2RlZmdoaWprbG1ub3A"
    assert route_template("POST", f"/api/v10/interactions/987654321/{token}/callback") == (
        "POST /interactions/{id}/{token}/callback"
    )
    assert route_template("PATCH", f"/api/v10/webhooks/42/{token}/messages/@original") == (
        "PATCH /webhooks/{id}/{token}/messages/@original"
    )


async def test_the_trace_counts_429s_and_errors_by_route() -> None:
    answers = iter([429, 502, 200])

    async def handler(request: web.Request) -> web.Response:
        return web.Response(status=next(answers))

    app = web.Application()
    app.router.add_post("/api/v10/channels/{id}/messages", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    route = "POST /channels/{id}/messages"
    limited = value("boardroom_discord_rate_limited_total", route=route)
    failed = value("boardroom_discord_errors_total", route=route, status="502")
    try:
        async with aiohttp.ClientSession(trace_configs=[discord_trace()]) as session:
            for _ in range(3):
                async with session.post(f"http://127.0.0.1:{port}/api/v10/channels/1234567/messages"):
                    pass
    finally:
        await runner.cleanup()
    assert value("boardroom_discord_rate_limited_total", route=route) == limited + 1
    assert value("boardroom_discord_errors_total", route=route, status="502") == failed + 1


async def test_ready_answers_503_until_every_check_passes() -> None:
    state = {"gateway": False, "database": True}

    async def database() -> None:
        if not state["database"]:
            raise ConnectionError("gone")

    readiness = Readiness(gateway=lambda: state["gateway"], database=database, migrated=lambda: True)
    port = free_port()
    async with OpsServer("127.0.0.1", port, readiness), aiohttp.ClientSession() as session:

        async def get(path: str) -> tuple[int, dict[str, object]]:
            async with session.get(f"http://127.0.0.1:{port}{path}") as answer:
                return answer.status, await answer.json()

        assert await get("/readyz") == (503, {"gateway": False, "database": True, "migrations": True})
        assert (await get("/healthz"))[0] == 200  # alive all the same
        state["gateway"] = True
        assert await get("/readyz") == (200, {"gateway": True, "database": True, "migrations": True})
        state["database"] = False
        assert (await get("/readyz"))[0] == 503
        async with session.get(f"http://127.0.0.1:{port}/metrics") as answer:
            assert answer.status == 200 and "boardroom_gateway_ready 1.0" in await answer.text()
