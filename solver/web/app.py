"""The Starlette application behind `dice-solver serve`: the page, its static files, and the
JSON API (`solver.web.api`). The time a command took on the server goes back in the standard
`Server-Timing` header, so the page can show it and tests can measure it."""

from __future__ import annotations

from importlib.resources import files

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from solver.web.api import Api

STATIC = files("solver.web") / "static"


def application() -> Starlette:
    api = Api()

    async def page(request: Request) -> HTMLResponse:
        return HTMLResponse((STATIC / "index.html").read_text(encoding="utf-8"))

    async def answer(request: Request) -> Response:
        game, name = request.path_params["game"], request.path_params["command"]
        result = await run_in_threadpool(api.run, game, name, request.query_params.multi_items())
        return Response(result.body, status_code=result.status, media_type="application/json",
                        headers={"Server-Timing": f"solve;dur={1000 * result.seconds:.1f}",
                                 "Cache-Control": "no-store"})

    return Starlette(routes=[
        Route("/", page),
        Route("/api/{game}/{command}", answer),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ])
