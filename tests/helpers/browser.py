"""Debian's headless Chromium, which the preview tests and the QTI 3 player tests drive through
Playwright (it never downloads a browser of its own; .ci/run installs the package)."""

from __future__ import annotations

import os
import shutil

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
#: The flags this machine's Chromium runs with (the first, --headless, Playwright sets itself).
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run"]
#: For a module that drives Chromium: skipped without it (a failure in CI, where it is installed).
needs_chromium = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium package is not installed")
