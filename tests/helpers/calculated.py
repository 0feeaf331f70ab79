"""tests/fixtures/calculated.md, the calculated questions' fixture: each question's answer written
again by hand from its formula (:data:`CALCULATED_ANSWERS`), and the sets a QTI 2.1 item template
holds (:func:`qti_sets`)."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

from lxml import etree

from helpers import QTI_NS, ROOT, zip_members

CALCULATED_SOURCE = ROOT / "tests" / "fixtures" / "calculated.md"

#: Each calculated question's answer, written again by hand from the source's formulas.
CALCULATED_ANSWERS: dict[str, Callable[[dict[str, float]], float]] = {
    "speed": lambda v: v["d"] / v["t"],
    "root": lambda v: (-v["b"] + math.sqrt(v["b"] ** 2 - 4 * v["a"] * v["c"])) / (2 * v["a"]),
    "square": lambda v: v["n"] ** 2 + 1,
    "circle": lambda v: 2 * round(math.pi * v["r"] ** 2, 2) / v["r"],
    "listed": lambda v: v["d"] / v["t"],
    "functions": lambda v: math.log10(v["x"]) + math.log(v["y"]) + math.sin(v["z"]) + math.exp(v["w"]),
}


def qti_items(out: Path, quiz: str = "calculated") -> dict[str, bytes]:
    """The items of a built QTI 2.1 package, by file name without ``.xml``."""
    return {Path(n).stem: data for n, data in zip_members((out / f"{quiz}.qti21.zip").read_bytes()).items()
            if n.startswith("items/") and n.endswith(".xml")}


def qti_sets(item: bytes) -> list[dict[str, float]]:
    """An item template's sets: each templateCondition branch's values, in set order."""
    root = etree.fromstring(item)
    sets = []
    for branch in root.iter(f"{{{QTI_NS}}}templateIf", f"{{{QTI_NS}}}templateElseIf"):
        sets.append({s.get("identifier"): float(s.findtext(f"{{{QTI_NS}}}baseValue"))
                     for s in branch.findall(f"{{{QTI_NS}}}setTemplateValue")})
    return sets
