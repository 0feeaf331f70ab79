"""A source built into all three targets, each output parsed whole (:class:`Outputs`), so a test
can look at a question in every target by its id: its item, text, weight and answers. (To score
responses in each output, helpers.scoring reads the same files question by question.)"""

from __future__ import annotations

import html as html_lib
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from helpers import QTI_NS, zip_members
from helpers.canvas import local_names
from qti_builder import BuildOptions, build
from qti_builder.diagnostics import DiagnosticSink
from qti_builder.model import Quiz
from qti_builder.readers import read_quiz


def qti_path(path: str) -> str:
    """An XPath in the QTI 2.1 namespace: ``itemBody/div`` -> ``q:itemBody/q:div``."""
    return "/".join(part if part in (".", "..") or part.startswith("@") or part.startswith("*") else f"q:{part}"
                    for part in path.split("/"))


@dataclass
class Outputs:
    quiz: Quiz
    qti: dict[str, bytes]
    moodle: etree._Element
    canvas: etree._Element
    #: What check/build printed as diagnostics (warnings only: a build with errors raises).
    warnings: list[str]

    # -- QTI 2.1 ------------------------------------------------------------------------------------

    def qti_raw(self, question_id: str) -> bytes:
        return self.qti[f"items/{question_id}.xml"]

    def qti_item(self, question_id: str) -> etree._Element:
        return etree.fromstring(self.qti_raw(question_id))

    def qti_weight(self, question_id: str) -> float:
        test = etree.fromstring(self.qti["assessmentTest.xml"])
        ref = next(r for r in test.iter(f"{{{QTI_NS}}}assessmentItemRef") if r.get("href") == f"items/{question_id}.xml")
        return float(ref.find(f"{{{QTI_NS}}}weight").get("value"))

    def qti_choices(self, question_id: str) -> dict[str, str]:
        """Text -> identifier of a choice interaction's choices."""
        item = self.qti_item(question_id)
        return {"".join(c.itertext()).strip(): c.get("identifier") for c in item.iter(f"{{{QTI_NS}}}simpleChoice")}

    def qti_text(self, question_id: str, cls: str) -> str:
        """The text of the item body's ``div`` of a class (``stem``, ``passage``), or ''."""
        item = self.qti_item(question_id)
        found = item.xpath(qti_path(f"itemBody/div[@class='{cls}']"), namespaces={"q": QTI_NS})
        return "".join(found[0].itertext()) if found else ""

    # -- Moodle XML ---------------------------------------------------------------------------------

    def moodle_question(self, question_id: str) -> etree._Element:
        return next(e for e in self.moodle.iter("question") if e.findtext("idnumber") == question_id)

    def moodle_text(self, question_id: str) -> str:
        return self.moodle_question(question_id).findtext("questiontext/text") or ""

    def moodle_answers(self, question_id: str) -> dict[str, str]:
        """Answer text -> fraction."""
        return {a.findtext("text"): a.get("fraction") for a in self.moodle_question(question_id).findall("answer")}

    # -- Canvas -------------------------------------------------------------------------------------

    def canvas_item(self, question_id: str) -> etree._Element:
        return next(i for i in self.canvas.iter("item") if i.get("ident") == f"{self.quiz.id}.{question_id}")

    def canvas_meta(self, question_id: str) -> dict[str, str]:
        item = self.canvas_item(question_id)
        return {f.findtext("fieldlabel"): f.findtext("fieldentry") or "" for f in item.iter("qtimetadatafield")}

    def canvas_text(self, question_id: str) -> str:
        """The question's HTML, unescaped."""
        item = self.canvas_item(question_id)
        return html_lib.unescape(item.find("presentation/material/mattext").text or "")

    def canvas_correct(self, question_id: str) -> list[str]:
        """The texts of the answers a full score is set for."""
        item = self.canvas_item(question_id)
        labels = {label.get("ident"): "".join(label.itertext()).strip() for label in item.iter("response_label")}
        right = []
        for condition in item.iter("respcondition"):
            setvar = condition.find("setvar")
            if setvar is not None and setvar.text == "100":
                right += [labels.get(v.text, v.text) for v in condition.iter("varequal")]
        return right


def build_all(tmp_path: Path, source: Path) -> Outputs:
    out = tmp_path / "out"
    result = build(BuildOptions(sources=[source], out_dir=out, jobs=1))
    sink = DiagnosticSink()
    read = read_quiz(source, sink)
    assert read is not None, [d.render() for d in sink.items]
    quiz = read[0]
    qti = zip_members((out / f"{quiz.id}.qti21.zip").read_bytes())
    # The Canvas assessment is in the QTI 1.2 namespace; its elements are looked up by plain name.
    canvas = local_names(etree.fromstring(zip_members((out / f"{quiz.id}.canvas.zip").read_bytes())[f"{quiz.id}/{quiz.id}.xml"]))
    moodle = etree.fromstring((out / f"{quiz.id}.moodle.xml").read_bytes(), etree.XMLParser(strip_cdata=True))
    return Outputs(quiz, qti, moodle, canvas, [d.render() for d in result.diagnostics])
