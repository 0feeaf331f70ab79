"""Fixtures, settings and hooks only; shared helpers are in tests/helpers (its docstring lists them).
The official schemas come from QTI_BUILDER_SCHEMAS, else the workspace's ../shared/schemas beside
the checkout (as in .ci/run), else the tool's download cache, filled once (helpers.schemas_for_tests)."""

from __future__ import annotations

import os
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import SEED_SOURCE
from hypothesis import HealthCheck, settings
from hypothesis.configuration import set_hypothesis_home_dir

# Property tests: a bounded, derandomised budget by default (the same examples on every run, so a
# change cannot land on a lucky draw and fail the next one); a long, random one on demand
# (--hypothesis-profile=nightly, QTI_BUILDER_NIGHTLY_EXAMPLES examples each, 20,000 unless set) to
# search for new failures. No example database: nothing is written into the checkout (a failure
# prints its example, a random run its seed: --hypothesis-seed=N replays it).
settings.register_profile("ci", max_examples=150, deadline=None, derandomize=True, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("nightly", max_examples=int(os.environ.get("QTI_BUILDER_NIGHTLY_EXAMPLES", "20000")),
                          deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")
# Hypothesis also keeps a cache of Unicode data: in the temporary folder, not the checkout.
if not os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
    set_hypothesis_home_dir(Path(tempfile.gettempdir()) / "qti-builder-hypothesis")

#: Set (to anything) by .ci/run: a skipped test fails the run, since everything a test needs
#: (Chromium, the seed quiz beside the checkout, git) is there in CI.
NO_SKIPS = "QTI_BUILDER_NO_SKIPS"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "property: a Hypothesis property (tests/README.md: the nightly run)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
            item.add_marker(pytest.mark.property)


def pytest_sessionfinish(session: pytest.Session) -> None:
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter is not None else []
    if skipped and os.environ.get(NO_SKIPS):
        reporter.line("")
        reporter.write_sep("=", f"{len(skipped)} skipped test(s) fail this run ({NO_SKIPS} is set)", red=True)
        for report in skipped:
            reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
            reporter.write_line(f"{report.nodeid}: {reason}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


#: The signals a build holds and handles (``interrupts``); the processes a test starts inherit the
#: main thread's mask and the handlers' dispositions from the test process.
_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@pytest.fixture(autouse=True)
def stop_signals_left_as_found() -> Iterator[None]:
    """Fail the test that leaves SIGINT or SIGTERM blocked in the main thread, or their handlers
    replaced, and put them back: otherwise the tests after it fail instead (an interrupt that never
    comes, a child started with them blocked that ignores them), far from the cause."""
    handlers = {number: signal.getsignal(number) for number in _STOP_SIGNALS}
    yield
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    blocked = [number.name for number in _STOP_SIGNALS if number in mask]
    replaced = [number.name for number, handler in handlers.items() if signal.getsignal(number) is not handler]
    if blocked or replaced:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
        for number, handler in handlers.items():
            signal.signal(number, handler)
        left = [f"{' and '.join(blocked)} blocked"] * bool(blocked)
        left += [f"the handler of {' and '.join(replaced)} replaced"] * bool(replaced)
        pytest.fail(f"the test left {', and '.join(left)} in the main thread (put back for the tests after it)",
                    pytrace=False)


@pytest.fixture(autouse=True)
def build_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test's build cache (``QTI_BUILDER_CACHE_DIR``, inherited by the processes it starts):
    a fresh empty folder, so the suite never writes to the user's cache and no test finds an
    entry it did not make itself."""
    folder = tmp_path_factory.mktemp("build-cache")
    monkeypatch.setenv("QTI_BUILDER_CACHE_DIR", str(folder))
    return folder


@pytest.fixture
def user_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's cache folder (platformdirs reads ``XDG_CACHE_HOME``, inherited by the processes
    a test starts), the test's own: for the tests of what lives there (the compiled code the
    command line keeps, the record of verified schema files), not the build cache."""
    folder = tmp_path_factory.mktemp("user-cache")
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    return folder


@pytest.fixture(scope="session")
def seed_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seed quiz built once into a temporary dist folder."""
    from qti_builder import BuildOptions, build

    out = tmp_path_factory.mktemp("dist")
    build(BuildOptions(sources=[SEED_SOURCE], out_dir=out))
    return out
