"""Point an unmodified discord.py at another API base (such as the fake)."""

from __future__ import annotations

import discord.gateway
import discord.http
import yarl


def gateway_url_for(api_base: str) -> yarl.URL:
    """ws(s)://host:port/gateway for an API base like http://host:port/api/v10."""
    url = yarl.URL(api_base)
    scheme = "wss" if url.scheme == "https" else "ws"
    return url.with_scheme(scheme).with_path("/gateway").with_query(None).with_fragment(None)


def point_discord_py_at(api_base: str) -> None:
    """Send every REST call and the gateway connection to `api_base`'s host.

    discord.py 2.7 builds every REST URL (webhooks and interaction callbacks
    included) as ``Route.BASE + path`` when the Route is created, and a
    non-sharded Client connects to ``DiscordWebSocket.DEFAULT_GATEWAY`` (it never
    asks GET /gateway/bot; it also falls back to DEFAULT_GATEWAY after an
    INVALID_SESSION). Both are class attributes, so set them before the client
    makes its first request.
    """
    discord.http.Route.BASE = api_base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway_url_for(api_base)
