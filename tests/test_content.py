"""Rich content (source/content-showcase.md) reaches both targets intact: code, tables, images,
audio, math and text that is hard to escape, each found where it belongs in the parsed output; and
hostile HTML (tests/fixtures/hostile-html.md, kept out of the bundled sources) never does."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from helpers import NS, ROOT, zip_members
from lxml import etree, html

from qti_builder import BuildOptions, build
from qti_builder import content

SHOWCASE = ROOT / "source" / "content-showcase.md"
HOSTILE = ROOT / "tests" / "fixtures" / "hostile-html.md"
MEDIA = ROOT / "source" / "media"
M = "{http://www.w3.org/1998/Math/MathML}"
Q = "{" + NS["q"] + "}"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("showcase")
    result = build(BuildOptions(sources=[SHOWCASE], out_dir=out))
    assert result.diagnostics == []  # a bundled source builds without a warning
    return out


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("hostile")
    result = build(BuildOptions(sources=[HOSTILE], out_dir=out))
    # The <script>, reported where it starts (line 11: "1. Raw HTML is sanitised: <b>bold stays</b>, <script>").
    assert [(d.code, d.span and (d.span.line, d.span.column)) for d in result.diagnostics] == [("QB150", (11, 46))]
    return out


@pytest.fixture(scope="module")
def package(built: Path) -> dict[str, bytes]:
    return zip_members((built / "content-showcase.qti21.zip").read_bytes())


@pytest.fixture(scope="module")
def moodle(built: Path) -> dict[str, etree._Element]:
    root = etree.fromstring((built / "content-showcase.moodle.xml").read_bytes())
    return {q.findtext("idnumber"): q for q in root.findall("question") if q.get("type") != "category"}


def item(package: dict[str, bytes], name: str) -> etree._Element:
    return etree.fromstring(package[f"items/{name}.xml"])


def moodle_html(question: etree._Element, path: str) -> html.HtmlElement:
    return html.fragment_fromstring(question.findtext(path), create_parent="div")


def test_code_keeps_its_exact_text_whitespace_and_language(package: dict[str, bytes], moodle: dict[str, etree._Element]) -> None:
    listing = '# Korean comments and whitespace stay exact:\ndef 출력(a, b):\n    print(f"{a} < {b}")   # three spaces before the hash\n'
    qti = item(package, "code-options")
    code = qti.find(f".//{Q}pre/{Q}code")
    assert code.text == listing and code.get("class") == "language-python"
    choices = [c.find(f"{Q}code").text for c in qti.iter(f"{Q}simpleChoice")]
    assert choices == ['print("5 < 6 & 7 > 3")', "print(5 < 6 & 7 > 3)", 'echo "5 < 6 & 7 > 3"']
    feedback = qti.find(f"{Q}modalFeedback[@identifier='B_fb']//{Q}pre/{Q}code")
    assert feedback.text == ">>> 5 < 6 & 7 > 3\nFalse\n"

    mq = moodle["code-options"]
    assert moodle_html(mq, "questiontext/text").find(".//pre/code").text == listing
    answers = [html.fragment_fromstring(a.findtext("text"), create_parent="div").find("code").text for a in mq.findall("answer")]
    assert answers == choices
    assert moodle_html(mq, "answer[2]/feedback/text").find(".//pre/code").text == ">>> 5 < 6 & 7 > 3\nFalse\n"


def test_cdata_terminator_and_markup_characters_survive(package: dict[str, bytes], moodle: dict[str, etree._Element]) -> None:
    expected = "A CDATA section ends with ]]>, and text may contain ]]> too; <![CDATA[ as well."
    qti = item(package, "code-options").find(f"{Q}modalFeedback[@identifier='general_fb']")
    assert " ".join("".join(qti.itertext()).split()) == expected
    assert moodle_html(moodle["code-options"], "generalfeedback/text").text_content() == expected


def test_table(package: dict[str, bytes], moodle: dict[str, etree._Element]) -> None:
    table = item(package, "table-question").find(f".//{Q}table")
    rows = [[" ".join("".join(c.itertext()).split()) for c in row] for row in table.iter(f"{Q}tr")]
    assert rows == [["workers", "GPUs per worker", "total"], ["1", "2", "2"], ["2", "2", "4"], ["3", "2", "?"]]
    assert [c.get("align") for c in table.iter(f"{Q}th")] == ["right", "right", "center"]
    mrows = moodle_html(moodle["table-question"], "questiontext/text").findall(".//tr")
    assert len(mrows) == 4 and mrows[3].text_content().split() == ["3", "2", "?"]


def test_images_are_packaged_and_referenced(package: dict[str, bytes], moodle: dict[str, etree._Element]) -> None:
    workers, gradient = (MEDIA / "workers.png").read_bytes(), (MEDIA / "다이어그램.png").read_bytes()
    qti = item(package, "image-question")
    srcs = {img.get("alt"): img.get("src") for img in qti.iter(f"{Q}img")}
    assert set(srcs) == {"Three blue boxes, one per worker", "A colour gradient"}
    for alt, data in (("Three blue boxes, one per worker", workers), ("A colour gradient", gradient)):
        src = srcs[alt]
        assert src.isascii() and not src.startswith("../")
        assert package["items/" + src] == data  # relative to the item file
    manifest = etree.fromstring(package["imsmanifest.xml"])
    resource = manifest.find(".//cp:resource[@identifier='RES-image-question']", NS)
    files = {f.get("href") for f in resource.findall("cp:file", NS)}
    assert {"items/" + s for s in srcs.values()} <= files  # Canvas imports only listed files

    mq = moodle["image-question"]
    for path, alt, data in (("questiontext", "Three blue boxes, one per worker", workers), ("generalfeedback", "A colour gradient", gradient)):
        element = mq.find(path)
        img = html.fragment_fromstring(element.findtext("text"), create_parent="div").find(f".//img[@alt='{alt}']")
        name = img.get("src").removeprefix("@@PLUGINFILE@@/")
        attached = element.find(f"file[@name='{name}']")  # in the same element, as Moodle requires
        assert attached.get("encoding") == "base64" and base64.b64decode(attached.text) == data


def test_audio(package: dict[str, bytes], moodle: dict[str, etree._Element]) -> None:
    clip = (MEDIA / "tone.wav").read_bytes()
    obj = item(package, "audio-question").find(f".//{Q}object")
    assert obj.get("type") == "audio/wav" and package["items/" + obj.get("data")] == clip
    audio = moodle_html(moodle["audio-question"], "questiontext/text").find(".//audio")
    name = audio.get("src").removeprefix("@@PLUGINFILE@@/")
    assert base64.b64decode(moodle["audio-question"].find(f"questiontext/file[@name='{name}']").text) == clip


def test_math(package: dict[str, bytes], moodle: dict[str, etree._Element]) -> None:
    qti = item(package, "math-question")
    stem_math = qti.findall(f"{Q}itemBody//{M}math")
    assert [m.get("display") for m in stem_math][:2] == ["inline", "block"]
    assert stem_math[1].find(f".//{M}mfrac") is not None and stem_math[1].find(f".//{M}msqrt") is not None
    assert all(c.find(f".//{M}math") is not None for c in qti.iter(f"{Q}simpleChoice"))
    mtext = moodle["math-question"].findtext("questiontext/text")
    assert "\\(ax^2 + bx + c = 0\\)" in mtext
    assert "$$x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}$$" in mtext
    assert "\\(x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}\\)" in moodle["math-question"].find("answer").findtext("text")


def test_money_stays_text(package: dict[str, bytes], moodle: dict[str, etree._Element]) -> None:
    feedback = item(package, "math-question").find(f"{Q}modalFeedback[@identifier='general_fb']")
    assert "It costs $5 to print this and $10 to frame it" in "".join(feedback.itertext())
    assert feedback.find(f".//{M}math") is None


def test_script_vanishes_and_safe_html_stays(hostile: Path) -> None:
    package = zip_members((hostile / "hostile-html.qti21.zip").read_bytes())
    texts = [data for data in package.values()] + [(hostile / "hostile-html.moodle.xml").read_bytes()]
    assert not any(b"<script" in t or b"this must vanish" in t for t in texts)
    assert item(package, "html-question").find(f".//{Q}b").text == "bold stays"
    moodle = etree.fromstring((hostile / "hostile-html.moodle.xml").read_bytes())
    stem = html.fragment_fromstring(moodle.findtext("question[@type='truefalse']/questiontext/text"), create_parent="div")
    assert stem.find(".//b").text == "bold stays" and "scripts do not" in stem.text_content()


def test_html_that_markdown_lacks_stays(package: dict[str, bytes], moodle: dict[str, etree._Element]) -> None:
    qti = item(package, "html-question")
    assert [(e.tag.removeprefix(Q), e.text) for e in qti.find(f"{Q}itemBody").iter(f"{Q}b", f"{Q}sub", f"{Q}kbd")] == [
        ("b", "bold"), ("sub", "2"), ("kbd", "Ctrl"), ("kbd", "C")]
    stem = moodle_html(moodle["html-question"], "questiontext/text")
    assert [(e.tag, e.text) for e in stem.iter("b", "sub", "kbd")] == [("b", "bold"), ("sub", "2"), ("kbd", "Ctrl"), ("kbd", "C")]


@pytest.mark.parametrize(
    ("markdown", "forbidden"),
    [
        ('<img src="x.png" onerror="alert(1)" alt="x">', "onerror"),
        ("<a href=\"javascript:alert(1)\">x</a>", "javascript:"),
        ("<iframe src='https://example.com'></iframe>", "iframe"),
        ("<style>body{display:none}</style>", "display:none"),
        ("<svg><script>alert(1)</script></svg>", "alert"),
        ('<a href="data:text/html;base64,PHNjcmlwdD4=">x</a>', "data:"),
        ("<div style=\"background:url(javascript:alert(1))\">x</div>", "javascript"),
    ],
)
def test_sanitiser(markdown: str, forbidden: str) -> None:
    for rendered in (content.render_block(markdown), content.render_html(markdown), content.render_preview(markdown)):
        assert forbidden not in rendered


def test_html_that_qti_cannot_hold_is_made_valid_keeping_every_word(tmp_path: Path) -> None:
    """A table with a header and no rows, and an unclosed <b> before a list: HTML holds both, QTI's
    grammar neither (no tbody; a list inside <b>). The build used to fail them as its own bug
    (QB401); now the header rows are the body, and the <b> is dropped around the list."""
    source = tmp_path / "w.md"
    source.write_text("---\ntitle: W\n---\n\n1. Look at this table. {#table type=essay}\n\n   | x | y |\n   |---|---|\n\n"
                      "2. Which one? {#bold}\n\nA) one\nB) two\n\nAnswer: B\nExplanation: <b>unclosed\n\n"
                      "    - B is right\n    - A is not\n", encoding="utf-8")
    Q = "{" + NS["q"] + "}"
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["qti21"]))  # validated, or it raises
    members = zip_members((tmp_path / "dist" / "w.qti21.zip").read_bytes())
    table = etree.fromstring(members["items/table.xml"]).find(f".//{Q}table")
    assert [[c.text for c in row] for row in table.findall(f"{Q}tbody/{Q}tr")] == [["x", "y"]]
    bold = etree.fromstring(members["items/bold.xml"])
    items = [" ".join(li.itertext()).strip() for li in bold.iter(f"{Q}li")]
    assert items == ["B is right", "A is not"] and "unclosed" in "".join(bold.itertext())
    assert not [b for b in bold.iter(f"{Q}b") if b.find(f".//{Q}ul") is not None]


@pytest.mark.parametrize("environment", ["aligned", "alignat}{2", "alignedat}{2", "eqnarray", "gather", "gathered",
                                         "multline", "flalign", "dcases", "tabular}{cc"])
def test_tex_environments_latex2mathml_lacks_become_mathml_tables(environment: str) -> None:
    """latex2mathml knows align*, array and cases, and passes other environments through as text
    with a bare '&' (not XML): they are converted as the environment they show like (issue 32)."""
    name = environment.split("}")[0]
    text = f"Solve $\\begin{{{environment}}} x + y &= 3 \\\\ x - y &= 1 \\end{{{name}}}$ now."
    assert content.inspect(text) == []
    root = etree.fromstring(content.render_block(text))
    tables = root.findall(".//{http://www.w3.org/1998/Math/MathML}mtable")
    assert len(tables) == 1 and len(tables[0]) == 2  # two rows


def test_a_formula_latex2mathml_cannot_write_as_xml_is_reported() -> None:
    """An environment nothing stands in for (rcases) is a located QB152 error, never a formula
    left as TeX in silence."""
    (problem,) = content.inspect(r"See $\begin{rcases} a & b \\ c & d \end{rcases}$.")
    assert problem.code == "QB152" and problem.severity == "error"


def test_struck_text_is_struck_in_every_target() -> None:
    """``~~text~~`` is struck through (GFM's strikethrough, which the one parser enables beside
    tables, ``content._md``): ``<s>`` for Moodle's HTML, QTI 2.1's allowed span for the packages
    (a hand mutant that enabled tables alone passed every test)."""
    text = "It is ~~gone~~ now."
    assert content.render_html(text) == "<p>It is <s>gone</s> now.</p>"
    assert content.render_block(text) == '<p>It is <span class="strikethrough">gone</span> now.</p>'
    assert "~~" not in content.render_canvas(text)
