"""The Starlette application behind `dice-solver serve`: the page, its static files, the JSON
API (`solver.web.api`), and the service worker and web app manifest that let a phone keep the
page on its home screen and open it with no network. The time a command took on the server goes
back in the standard `Server-Timing` header, so the page can show it and tests can measure it."""

from __future__ import annotations

from importlib.resources import files

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from solver.web.api import Api

STATIC = files("solver.web") / "static"
TOTD_DICE = files("solver.games.totd") / "dice.json"  # the faces the page offers to tap


def application(budget: float = 10.0) -> Starlette:
    """The app; each request's solve is held to `budget` seconds (estimated)."""
    api = Api(budget)

    async def page(request: Request) -> HTMLResponse:
        return HTMLResponse((STATIC / "index.html").read_text(encoding="utf-8"))

    async def answer(request: Request) -> Response:
        game, name = request.path_params["game"], request.path_params["command"]
        result = await run_in_threadpool(api.run, game, name, request.query_params.multi_items())
        return Response(result.body, status_code=result.status, media_type="application/json",
                        headers={"Server-Timing": f"solve;dur={1000 * result.seconds:.1f}",
                                 "Cache-Control": "no-store"})

    async def worker(request: Request) -> FileResponse:
        """The service worker, from the root so that it may keep the whole page offline."""
        return FileResponse(str(STATIC / "sw.js"), media_type="text/javascript",
                            headers={"Cache-Control": "no-cache"})

    async def totd_dice(request: Request) -> FileResponse:
        return FileResponse(str(TOTD_DICE), media_type="application/json")

    return Starlette(routes=[
        Route("/", page),
        Route("/sw.js", worker),
        Route("/data/totd-dice.json", totd_dice),
        Route("/api/{game}/{command}", answer),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ])
