"""qti-builder: quiz sources (Markdown, YAML) to IMS QTI 2.1 packages and Moodle XML."""

# The one place the version is written (pyproject.toml reads it from here): a literal, as asking
# importlib.metadata would cost a cold build about 40 ms of imports.
__version__ = "0.1.0"

from typing import TYPE_CHECKING, Any  # noqa: E402

if TYPE_CHECKING:
    from .pipeline import BuildOptions, BuildResult, build


def __getattr__(name: str) -> Any:
    # The pipeline (pydantic, lxml, jinja2) is imported when first asked for, not by every
    # ``import qti_builder``: ``qti-builder --version`` and ``--help`` never need it (bench/README.md).
    if name in ("BuildOptions", "BuildResult", "build"):
        from . import pipeline

        return getattr(pipeline, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["BuildOptions", "BuildResult", "build", "__version__"]
