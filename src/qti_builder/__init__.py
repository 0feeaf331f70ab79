"""qti-builder: quiz sources (Markdown, YAML) to IMS QTI 2.1 packages and Moodle XML."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("qti-builder")
except PackageNotFoundError:  # running from a source tree without installing
    __version__ = "0.0.0+source"

from .pipeline import BuildOptions, BuildResult, build  # noqa: E402

__all__ = ["BuildOptions", "BuildResult", "build", "__version__"]
