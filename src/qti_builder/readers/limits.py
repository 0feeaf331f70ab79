"""How much a source may hold: the readers' limits, each an option of ``build`` and ``check``.

The limits guard against amplification (a few lines of YAML that expand to billions of values,
nesting that exhausts the parser) and against files that are not quizzes at all; none of them is
meant to stop a real bank. Each default fits a bank of 100,000 questions (docs/source-format.md#limits),
and each limit's error names the option that raises it (:func:`raise_hint`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

MiB = 1024 * 1024

#: A 100,000-question Markdown bank is 25-40 MB, its YAML form about twice that.
MAX_SOURCE_BYTES = 256 * MiB
#: Values that YAML aliases (``*name``) may repeat in one source: a shared list of choices or a
#: shared feedback in every question of a large bank fits; a "billion laughs" does not.
MAX_YAML_ALIAS_VALUES = 1_000_000
#: Levels of nesting in a YAML source (or front matter). A quiz needs about 8, and 2 more per
#: level of nested sections.
MAX_YAML_DEPTH = 100
#: The deepest nesting the YAML reader can follow (PyYAML composes recursively): the largest
#: --max-yaml-depth.
YAML_DEPTH_CEILING = 250
#: Sets of values a calculated question may generate (or list), and the largest --qti-variants.
#: Here, beside the other limits, so the command line can give it without importing the model.
MAX_SETS = 100
#: Largest media file a quiz may reference, by default (``--max-media-mb``; media.py).
MAX_MEDIA_BYTES = 10 * 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """The limits of one build (:class:`qti_builder.pipeline.BuildOptions` carries them)."""

    #: Largest source file; larger ones are refused before they are read.
    max_source_bytes: int = MAX_SOURCE_BYTES
    #: Values YAML aliases may repeat in one source (sources and front matter).
    max_yaml_alias_values: int = MAX_YAML_ALIAS_VALUES
    #: Levels of nesting a YAML source may have, aliases followed.
    max_yaml_depth: int = MAX_YAML_DEPTH


#: Each limit's command-line option (cli.py), for the hint of its error; the media limit is
#: ``BuildOptions.max_media_bytes`` (media.py).
OPTIONS = {
    "max_media_bytes": "--max-media-mb",
    "max_source_bytes": "--max-source-mb",
    "max_yaml_alias_values": "--max-yaml-alias-values",
    "max_yaml_depth": "--max-yaml-depth",
}


def raise_hint(limit: str, needed: float | None = None) -> str:
    """How to raise ``limit`` (a :class:`Limits` field): its option, with a value that is enough
    when the value needed is known (``needed``: bytes for the sizes, a count for the others)."""
    option = OPTIONS[limit]
    if needed is None:
        return f"raise the limit with {option} N"
    value = math.ceil(needed / MiB) if limit.endswith("_bytes") else math.ceil(needed)
    return f"raise the limit with {option} {value}"


def sizes(size: int, limit: int) -> tuple[str, str]:
    """A size and the limit it passes, as a message writes them: in MiB to a tenth, or in bytes
    when the two would read the same (a file just over its limit) or below a tenth of a MiB."""
    def mib(n: int) -> str:
        tenths = round(n * 10 / MiB)
        if tenths == 0:
            return f"{n:,} bytes"
        return f"{tenths // 10} MiB" if tenths % 10 == 0 else f"{tenths / 10:.1f} MiB"

    if mib(size) == mib(limit):
        return f"{size:,} bytes", f"{limit:,} bytes"
    return mib(size), mib(limit)
