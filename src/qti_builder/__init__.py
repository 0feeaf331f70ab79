"""qti-builder: quiz sources (Markdown, YAML) to IMS QTI 2.1 packages and Moodle XML."""

# The one place the version is written (pyproject.toml reads it from here): a literal, as asking
# importlib.metadata would cost a cold build about 40 ms of imports.
__version__ = "0.1.0"

from .pipeline import BuildOptions, BuildResult, build  # noqa: E402

__all__ = ["BuildOptions", "BuildResult", "build", "__version__"]
