"""The QTI 2.1 package in another player: Citolab's QTI 3 web components, after Citolab's converter.

@citolab/qti-convert turns the package into QTI 3 (in Node) and @citolab/qti-components plays
its items in Debian's Chromium; the versions are pinned in tests/qti3/package-lock.json, which
.ci/run installs with ``npm ci --prefix tests/qti3`` (docs/question-types.md, "QTI players and
item templates", says what these tests find):

- the fixed variants of ``--qti-variants`` play: each shows its set's values and scores its
  right answer full marks and a wrong one zero;
- the item template does not: qti-components runs template processing but has no
  ``templateCondition``, so the set is drawn and none of its values is set;
- its test player takes every item reference of a test and applies no ``selection``: a delivery
  built on it must draw the variant itself.

The last two pin what the documentation says of these versions: a version that runs them makes
these tests fail, and the documentation must say so.
"""

from __future__ import annotations

import shutil
import subprocess
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT
from helpers.browser import CHROMIUM, FLAGS, needs_chromium
from helpers.calculated import CALCULATED_SOURCE
from lxml import etree

from qti_builder.pipeline import BuildOptions, build

MODULES = ROOT / "tests" / "qti3" / "node_modules"
CONVERT = MODULES / "@citolab" / "qti-convert" / "dist" / "qti-convert-folder.mjs"
PLAYER = MODULES / "@citolab" / "qti-components" / "cdn" / "index.js"
NODE = shutil.which("node")
QTI3 = "{http://www.imsglobal.org/xsd/imsqtiasi_v3p0}"

pytestmark = [
    needs_chromium,
    pytest.mark.skipif(NODE is None or not CONVERT.exists() or not PLAYER.exists(),
                       reason="the QTI 3 tools are not installed: npm ci --prefix tests/qti3 (as .ci/run does)"),
]

#: The player's page: its whole bundle as one module, served from a made-up origin by Playwright
#: (module scripts do not load from file: URLs); nothing leaves the machine.
ORIGIN = "http://qti3.invalid"
PAGE = (f'<!DOCTYPE html><html><body><div id="host"></div><script type="module">import * as Q from "{ORIGIN}/player.js";'
        "window.Q = Q; window.ready = true;</script></body></html>")

#: Render one QTI 3 item, then for each response: set it, run response processing, read the score.
PLAY_ITEM = """async ([xml, responses]) => {
    const host = document.getElementById('host');
    host.replaceChildren(window.Q.qtiTransformItem().parse(xml).htmlDoc());
    const item = host.querySelector('qti-assessment-item');
    await item.updateComplete;
    await new Promise(resolve => setTimeout(resolve, 50));
    const variables = Object.fromEntries(item.variables.map(v => [v.identifier, v.value]));
    const scores = [];
    for (const response of responses) {
        item.updateResponseVariable('RESPONSE', response);
        item.processResponse();
        scores.push([Number(item.getOutcome('SCORE').value), Number(item.getOutcome('MAXSCORE').value)]);
    }
    return {text: host.querySelector('qti-item-body').innerText, variables, scores};
}"""

#: Render a QTI 3 test in the player's qti-test and list the items it will deliver.
PLAY_TEST = """async (xml) => {
    const host = document.getElementById('host');
    const test = document.createElement('qti-test');
    host.replaceChildren(test);
    test.appendChild(window.Q.qtiTransformTest().parse(xml).htmlDoc());
    await new Promise(resolve => setTimeout(resolve, 300));
    return test.testContext.items.map(item => item.identifier);
}"""


def converted(tmp_path: Path, name: str, qti_variants: int) -> Path:
    """calculated.md's QTI 2.1 package, unzipped and converted to QTI 3 by qti-convert."""
    build(BuildOptions(sources=[CALCULATED_SOURCE], out_dir=tmp_path / name, formats=["qti21"], qti_variants=qti_variants, jobs=1))
    folder = tmp_path / name / "qti21"
    with zipfile.ZipFile(tmp_path / name / "calculated.qti21.zip") as z:
        z.extractall(folder)
    done = subprocess.run([str(NODE), str(CONVERT), str(folder)], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return folder.with_name("qti21-qti3")


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        # launch() gives the browser a fresh profile folder of its own
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS[1:])
        page = browser.new_page()
        page.messages = []
        page.on("console", lambda m: page.messages.append(m.text) if m.type in ("error", "warning") else None)
        page.on("pageerror", lambda e: page.messages.append(str(e)))
        page.route(f"{ORIGIN}/**", lambda route: route.fulfill(
            body=PLAYER.read_bytes() if route.request.url.endswith("/player.js") else PAGE,
            content_type="text/javascript" if route.request.url.endswith(".js") else "text/html"))
        page.goto(f"{ORIGIN}/index.html")
        page.wait_for_function("window.ready === true")
        yield page
        browser.close()


def test_the_fixed_variants_play_and_score_in_qti_components(tmp_path: Path, page: Any) -> None:
    qti3 = converted(tmp_path, "variants", 3)
    page.messages.clear()
    items = sorted((qti3 / "items").glob("*.xml"))
    assert len(items) == 21  # 7 questions × 3 variants
    for path in items:
        xml = path.read_text(encoding="utf-8")
        root = etree.fromstring(xml.encode())
        correct = root.findtext(f"{QTI3}qti-response-declaration/{QTI3}qti-correct-response/{QTI3}qti-value")
        if path.name.startswith("sum."):
            wrong = "B"
        else:
            upper = float(root.findall(f".//{QTI3}qti-lte/{QTI3}qti-base-value")[0].text)
            wrong = repr(upper + max(1.0, abs(upper)))
        played = page.evaluate(PLAY_ITEM, [xml, [correct, wrong]])
        assert played["scores"] == [[1, 1], [0, 1]], (path.name, played)
        body = " ".join(played["text"].split())
        assert "{" not in body and any(ch.isdigit() for ch in body), body  # the set's values, as text
    speed = page.evaluate(PLAY_ITEM, [(qti3 / "items" / "speed.v1.xml").read_text(encoding="utf-8"), []])
    assert speed["text"].startswith("A car covers ") and " km in " in speed["text"]
    assert page.messages == []


def test_the_item_template_is_not_run_by_qti_components(tmp_path: Path, page: Any) -> None:
    qti3 = converted(tmp_path, "templates", 0)
    xml = (qti3 / "items" / "speed.xml").read_text(encoding="utf-8")
    assert "<qti-template-condition>" in xml  # the converter keeps the template processing whole
    page.messages.clear()
    played = page.evaluate(PLAY_ITEM, [xml, []])
    variables = played["variables"]
    assert 1 <= int(variables["SET"]) <= 12  # randomInteger ran...
    assert [variables[name] for name in ("d", "t", "ANSWER", "LOWER", "UPPER")] == [""] * 5  # ...the set's branch did not
    assert " ".join(played["text"].split()) == "A car covers km in hours. What is its average speed? km/h"
    assert any("template processing" in m and "is not a function" in m for m in page.messages), page.messages


def test_the_test_player_applies_no_selection(tmp_path: Path, page: Any) -> None:
    qti3 = converted(tmp_path, "drawn", 2)
    test = (qti3 / "assessmentTest.xml").read_text(encoding="utf-8")
    assert test.count('<qti-selection select="1"/>') == 7  # converted with each question's draw...
    delivered = page.evaluate(PLAY_TEST, test)
    assert len(delivered) == 14 and "calculated.speed.v1" in delivered and "calculated.speed.v2" in delivered  # ...not drawn
