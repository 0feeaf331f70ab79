"""writers/qti21_calculated.py, where a sampled mutmut mutant survived every test file (issue 35,
eighth session): what a student of a QTI 2.1 player sees of a calculated question written as
fixed items (``qti_variants``), read with lxml from the package; and that a build reports every
QB158 of a quiz, also after a calculated question whose formulas cannot be computed.

Outside [tool.mutmut]'s selection (``tools/mutation.py --recheck --also`` runs it).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from helpers import write, zip_members
from qti_builder import BuildOptions, build
from qti_builder.diagnostics import BuildFailed

QTI = "{http://www.imsglobal.org/xsd/imsqti_v2p1}"

#: A calculated question with a unit, built as two fixed items (docs/source-format.md: "unit=km/h
#: is shown after the box").
SPEED = """---
id: units
title: Units
settings:
  qti_variants: 2
---

1. A car covers {d} km in {t} hours. What is its average speed? {#speed type=calculated unit=km/h sets=3}

```variables
d = 20..200 step 5
t = 2..4
```

Answer: d / t ± 1%
"""


def test_each_fixed_item_of_a_calculated_question_shows_its_unit_after_the_box(tmp_path: Path) -> None:
    """Each fixed item (one per set, for players without item templates) is what the item
    template shows in that set: the unit the source gives follows the answer box, as it does in the
    item template and in a numerical question."""
    build(BuildOptions(sources=[write(tmp_path, "units.md", SPEED)], out_dir=tmp_path / "dist", formats=["qti21"], jobs=1))
    files = zip_members((tmp_path / "dist" / "units.qti21.zip").read_bytes())
    items = sorted(name for name in files if name.startswith("items/"))
    assert items == ["items/speed.v1.xml", "items/speed.v2.xml"]
    for name in items:
        item = etree.fromstring(files[name])
        (box,) = item.iter(f"{QTI}textEntryInteraction")
        after_box = "".join(box.getparent().itertext()).split()
        assert after_box == ["km/h"], name


#: The first question's answer names a variable it does not define (no set can be computed); the
#: second has a's placeholder inside a formula and the symbol a in another formula (QB158).
TWO_FAULTS = """---
id: faults
title: Faults
---

1. What is {a} doubled? {#double type=calculated}

```variables
a = 2..9
```

Answer: c * 2

2. Solve ${a}x = 6$ for $x$, where $a > 0$. {#solve type=calculated sets=2}

```variables
a = 2..3
```

Answer: 6 / a
"""


def test_a_calculated_question_that_cannot_be_computed_does_not_hide_the_next_ones_qb158(tmp_path: Path) -> None:
    """Every problem in one run: the first question's unknown variable is reported, and so is the
    second question's symbol a beside a's placeholder in a formula (QB158), at that formula."""
    source = write(tmp_path, "faults.md", TWO_FAULTS)
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["qti21"], write=False, jobs=1))
    lines = source.read_text(encoding="utf-8").splitlines()
    rendered = [d.render() for d in failed.value.diagnostics]
    assert any("'c' is not a variable" in r and "double" in r for r in rendered), rendered
    qb158 = [d for d in failed.value.diagnostics if d.code == "QB158"]
    assert len(qb158) == 1, rendered
    assert "'solve'" in qb158[0].message and "symbol a" in qb158[0].message
    span = qb158[0].span
    assert span is not None and lines[span.line - 1].startswith("2. Solve")
    assert span.column == lines[span.line - 1].index("a > 0") + 1
