"""The browser sessions of ``bpe-explorer serve``: each one's app ends with it, and only so many run.

``textual-serve`` 1.1.3 starts each tab's app through ``/bin/sh -c`` and, when the tab goes, sends
it "quit" and waits for it for ever; the server's own shut-down never touches the apps. An app
that missed its "quit" (Textual's web driver loses one that comes while the app starts) redrew at
~100 % CPU for ever, re-parented to PID 1 once the server stopped. Here each session's app

- runs without a shell, in a process group of its own, under :class:`tui.served_driver.ServedDriver`
  (every quit, signal and end of input ends the app);
- is killed by the kernel if the server dies, however it dies (:func:`~bpe_engine.processes.dies_with_parent`);
- is ended when its tab goes and when the server stops: "quit", then, if it has not ended within
  :data:`QUIT_GRACE` seconds, SIGKILL to its whole group (the app and any training child).

At most ``--max-sessions`` apps run at once (by default what the cores and the memory hold,
:mod:`bpe_cli.serve_cap`); a tab beyond that is told so in its page and nothing is started.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shlex
import signal
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from bpe_engine.processes import dies_with_parent

from .serve_cap import SessionCap, refusal

log = logging.getLogger("textual-serve")

DRIVER_IMPORT = "tui.served_driver:ServedDriver"
"""The driver a served session's app runs under, named for Textual (``TEXTUAL_DRIVER``) rather than
imported: the CLI never imports the app (tests/tui/test_served_driver.py runs the app with it)."""
QUIT_GRACE = 5.0
"""Seconds an app has to end after "quit" before its process group is killed (it quits in well under
one; more only when it is wedged, and a wedged app of a tab that is gone must not keep a core)."""
PAGE = Path(__file__).with_name("serve_page")
"""Our page template: textual-serve's asks a web font host for Roboto Mono; ours serves the font
that textual-serve ships in its static files, so the page loads nothing from outside."""


class AppSession(AppService):
    """One tab's app: started without a shell in its own process group; :meth:`stop` always ends it."""

    def __init__(self, argv: Sequence[str], **kwargs: Any) -> None:
        super().__init__(shlex.join(argv), **kwargs)
        self.argv = list(argv)
        self._stopping: asyncio.Task[None] | None = None

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        environment = super()._build_environment(width, height)
        environment["TEXTUAL_DRIVER"] = DRIVER_IMPORT
        return environment

    async def _open_app_process(self, width: int = 80, height: int = 24) -> asyncio.subprocess.Process:
        self._process = process = await asyncio.create_subprocess_exec(
            *dies_with_parent(self.argv),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            env=self._build_environment(width, height), start_new_session=True,
        )  # fmt: skip
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    async def on_data(self, payload: bytes) -> None:
        """Pass the app's output to the tab; once the tab is gone, keep reading it (and drop it), so
        the app never blocks on a full pipe and can still quit."""
        try:
            await self.remote_write_bytes(payload)
        except (ConnectionError, RuntimeError):
            pass

    @property
    def running(self) -> bool:
        """Its app is starting or running (it counts towards the cap until it has ended)."""
        return self._process is None or self._process.returncode is None

    @property
    def ended(self) -> bool:
        """:meth:`stop` has run to its end: the app and its group are gone."""
        return self._stopping is not None and self._stopping.done()

    async def stop(self) -> None:
        """End the app (idempotent, and it completes even if the caller is cancelled)."""
        if self._stopping is None:
            self._stopping = asyncio.ensure_future(self._end())
        await asyncio.shield(self._stopping)

    async def _end(self) -> None:
        process = self._process
        if process is None:
            return
        await self._download_manager.cancel_app_downloads(app_service_id=self.app_service_id)
        if process.returncode is None:
            await self.send_meta({"type": "quit"})
            try:
                await asyncio.wait_for(asyncio.shield(process.wait()), QUIT_GRACE)
            except asyncio.TimeoutError:
                log.warning("app %s did not quit within %g s: killed", process.pid, QUIT_GRACE)
        self.kill()  # whatever is left of its group (a training child that has not seen the app go)
        await process.wait()
        if self._task is not None:
            await self._task  # its output read to the end
        try:
            await self.remote_close()
        except (ConnectionError, RuntimeError):
            pass

    def kill(self) -> None:
        """SIGKILL to the app's process group, now (nothing if it is already gone)."""
        if self._process is not None:
            try:
                os.killpg(self._process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


class ExplorerServer(Server):
    """textual-serve's server with :class:`AppSession` sessions, a cap on them and a self-contained page."""

    def __init__(self, argv: Sequence[str], *, cap: SessionCap, **kwargs: Any) -> None:
        super().__init__(shlex.join(argv), templates_path=PAGE, **kwargs)
        self.argv = list(argv)
        self.cap = cap
        self.sessions: set[AppSession] = set()

    async def on_startup(self, app: web.Application) -> None:
        self.console.print(f"bpe-explorer serve on {self.public_url} (at most {self.cap.limit} sessions at once)")
        self.console.print("[cyan]Press Ctrl+C to quit")

    async def on_shutdown(self, app: web.Application) -> None:
        """The server stops: every session's app ends before the server does."""
        await asyncio.gather(*(self._end(session) for session in list(self.sessions)), return_exceptions=True)

    async def _end(self, session: AppSession) -> None:
        """Stop ``session``; it leaves :attr:`sessions` (and the cap's count) only once its app has ended,
        so a stop cut short by a cancel still leaves it to :meth:`on_shutdown` and :meth:`kill_all`."""
        try:
            await session.stop()
        finally:
            if session.ended:
                self.sessions.discard(session)

    def kill_all(self) -> None:
        """The last resort when the server's loop has ended: kill every app still running."""
        for session in list(self.sessions):
            session.kill()

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        websocket = web.WebSocketResponse(heartbeat=15)
        await websocket.prepare(request)
        running = sum(1 for session in self.sessions if session.running)
        if running >= self.cap.limit:
            log.warning("a new session was refused: %d running, the cap is %d", running, self.cap.limit)
            await websocket.send_bytes(refusal(running, self.cap).encode("utf-8"))
            await websocket.close()
            return websocket
        session = AppSession(
            self.argv, write_bytes=websocket.send_bytes, write_str=websocket.send_str, close=websocket.close,
            download_manager=self.download_manager, debug=self.debug,
        )  # fmt: skip
        self.sessions.add(session)
        try:
            await session.start(to_int(request.query.get("width", "80"), 80), to_int(request.query.get("height", "24"), 24))
            await self._process_messages(websocket, session)
        except asyncio.CancelledError:
            pass
        except Exception as error:  # noqa: BLE001 -- a session's failure is logged, never the server's end
            log.exception(error)
        finally:
            await self._end(session)
        return websocket


__all__ = ["PAGE", "QUIT_GRACE", "AppSession", "ExplorerServer"]
