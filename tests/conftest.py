"""Shared fixtures. The official schemas come from QTI_BUILDER_SCHEMAS, defaulting to the
workspace's ../shared/schemas, as in .ci/run."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
SEED_SOURCE = ROOT / "source" / "ray-train-tune.md"
os.environ.setdefault("QTI_BUILDER_SCHEMAS", str(ROOT.parent / "shared" / "schemas"))
SCHEMAS = Path(os.environ["QTI_BUILDER_SCHEMAS"])

# Property tests: a bounded, derandomised budget in CI (the same examples on every run, so a
# change cannot land on a lucky draw and fail the next one); a long, random one on demand
# (--hypothesis-profile=nightly) to search for new failures.
settings.register_profile("ci", max_examples=150, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("nightly", max_examples=20_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")

QTI_NS = "http://www.imsglobal.org/xsd/imsqti_v2p1"
CP_NS = "http://www.imsglobal.org/xsd/imscp_v1p1"
NS = {"q": QTI_NS, "cp": CP_NS, "lom": "http://ltsc.ieee.org/xsd/LOM", "md": "http://www.imsglobal.org/xsd/imsqti_metadata_v2p1"}


def zip_members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


@pytest.fixture(scope="session")
def seed_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seed quiz built once into a temporary dist folder."""
    from qti_builder import BuildOptions, build

    out = tmp_path_factory.mktemp("dist")
    build(BuildOptions(sources=[SEED_SOURCE], out_dir=out))
    return out


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path
