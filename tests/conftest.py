"""Fixtures and settings only; shared helpers are in tests/helpers (its docstring lists them).
The official schemas come from QTI_BUILDER_SCHEMAS, defaulting to the workspace's ../shared/schemas,
as in .ci/run."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import SEED_SOURCE
from hypothesis import HealthCheck, settings

# Property tests: a bounded, derandomised budget in CI (the same examples on every run, so a
# change cannot land on a lucky draw and fail the next one); a long, random one on demand
# (--hypothesis-profile=nightly) to search for new failures.
settings.register_profile("ci", max_examples=150, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("nightly", max_examples=20_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")


@pytest.fixture(scope="session")
def seed_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seed quiz built once into a temporary dist folder."""
    from qti_builder import BuildOptions, build

    out = tmp_path_factory.mktemp("dist")
    build(BuildOptions(sources=[SEED_SOURCE], out_dir=out))
    return out
