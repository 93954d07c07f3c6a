"""Route table of the fake REST API."""

from __future__ import annotations

import functools

from aiohttp import web

from . import routes_app, routes_channels, routes_interactions, routes_users
from .server import API_PREFIX, FakeDiscord


def add_routes(fake: FakeDiscord, app: web.Application) -> None:
    """Register every implemented route on `app`."""
    for module in (routes_app, routes_channels, routes_interactions, routes_users):
        for method, path, handler in module.ROUTES:
            prefix = "" if path.startswith("/attachments") else API_PREFIX
            app.router.add_route(method, prefix + path, functools.partial(handler, fake))
