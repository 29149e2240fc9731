"""The driver of an app that ``bpe-explorer serve`` runs for one browser tab: it always ends.

Textual's :class:`~textual.drivers.web_driver.WebDriver` turns the server's "quit", SIGTERM and
SIGINT into a bare ``ExitApp`` message. Posted while the app is still starting (a browser tab
closed at once: a headless ``chromium --screenshot``), that message stops the app's message loop
but never marks the app as exiting, so shut-down waits on timers that keep running and the screen
redraws without end at ~100 % CPU, deaf to every later quit and signal. And when the server goes
away (its end of the pipe closes), the driver's input thread just stops, leaving the app running.

This driver asks for an exit the way the app itself does (``App.exit``, which marks the app as
exiting first) on each of those: the server's "quit", SIGTERM, SIGINT, and the end of its input.
The server (``bpe_cli/serve_sessions.py``) also kills what is left after a grace period, and the
kernel kills the app if the server dies (:func:`bpe_engine.processes.dies_with_parent`).
"""

from __future__ import annotations

import signal
import sys

from textual.drivers.web_driver import WebDriver


class ServedDriver(WebDriver):
    """:class:`WebDriver` whose every way to end (quit, SIGTERM, SIGINT, end of input) ends the app."""

    def start_application_mode(self) -> None:
        super().start_application_mode()  # Driver.__init__ keeps the app's loop in self._loop
        if sys.platform != "win32":
            for number in (signal.SIGINT, signal.SIGTERM):
                self._loop.add_signal_handler(number, self._app.exit)  # replaces WebDriver's bare ExitApp

    def on_meta(self, packet_type: str, payload: dict[str, object]) -> None:
        if packet_type == "quit":  # from the input thread
            self._request_exit()
        else:
            super().on_meta(packet_type, payload)

    def run_input_thread(self) -> None:
        try:
            super().run_input_thread()
        finally:  # the input ended: the server asked for the exit, or it is gone
            if not self.exit_event.is_set():
                self._request_exit()

    def _request_exit(self) -> None:
        """``App.exit`` on the app's loop, from any thread; nothing if the loop has already closed."""
        loop = self._loop
        if loop.is_closed():
            return
        try:
            loop.call_soon_threadsafe(self._app.exit)
        except RuntimeError:  # closed between the check and the call
            pass


__all__ = ["ServedDriver"]
