"""Watching sources: ``serve`` (the preview over HTTP with live reload) and ``build --watch``.

Only the quiz whose source changed is rebuilt; a change to anything else under the watched
folders (an image, say) rebuilds everything. The server listens on 127.0.0.1 only.
"""

from __future__ import annotations

import functools
import tempfile
import threading
from collections.abc import Callable
from dataclasses import replace
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import typer
import watchfiles

from . import memory
from .pipeline import BuildOptions, find_sources
from .preview import build_preview
from .readers import SOURCE_SUFFIXES


def _changed_sources(changes: set[tuple[Any, str]], options: BuildOptions) -> set[Path] | None:
    """The source files that changed, or None when something else did (rebuild all)."""
    paths = {Path(path).resolve() for _, path in changes}
    if all(p.suffix.lower() in SOURCE_SUFFIXES for p in paths):
        known = {p.resolve() for p in find_sources(options.sources)}
        return {p for p in paths if p in known} or None
    return None


def _watched(options: BuildOptions) -> list[Path]:
    return [p if p.is_dir() else p.parent for p in options.sources]


def watch_builds(options: BuildOptions, build: Callable[[BuildOptions], Any], stop: threading.Event | None = None) -> None:
    """Build, then build again at each change, in this process, keeping in memory what the build
    cache holds of the last build (:mod:`.memory`): a save that edits one question of a big bank
    takes the other chunks, pieces and runs from there rather than from the cache folder."""
    with memory.kept():
        build(options)
        memory.sweep()
        typer.echo("watching for changes (Ctrl-C to stop)", err=True)
        for changes in watchfiles.watch(*_watched(options), stop_event=stop, debounce=200):
            changed = _changed_sources(changes, options)
            build(replace(options, sources=sorted(changed)) if changed else options)
            memory.sweep()


class _Handler(SimpleHTTPRequestHandler):
    build_number: list[int]

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        if self.path == "/__build":
            body = str(self.build_number[0]).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - http.server's signature
        pass


def serve(options: BuildOptions, port: int, out: Path | None = None, stop: threading.Event | None = None) -> None:
    folder = out or Path(tempfile.mkdtemp(prefix="qti-builder-preview-"))
    build_number = [0]

    def rebuild(only: set[Path] | None) -> None:
        result = build_preview(options, folder, live_reload=True, only=only)
        build_number[0] += 1
        for diagnostic in result.diagnostics:
            typer.echo(diagnostic.render(), err=True)

    rebuild(None)
    handler = type("Handler", (_Handler,), {"build_number": build_number})
    server = ThreadingHTTPServer(("127.0.0.1", port), functools.partial(handler, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    typer.echo(f"serving the preview at http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C to stop)")
    try:
        for changes in watchfiles.watch(*_watched(options), stop_event=stop, debounce=200):
            rebuild(_changed_sources(changes, options))
    finally:
        server.shutdown()
