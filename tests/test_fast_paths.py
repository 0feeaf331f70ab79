"""The cold build's shortcuts (issue 34, sixth session) answer as the long way did: an answer
key's entries found only on a line with a digit, and kept for the next lines; a Canvas item's
metadata walked child by child; a Moodle grade option found exactly before the tolerance's walk.
Each is checked against the long way written out here (the ElementPath, the tolerance alone),
and through the reader and the validator on sources and documents that reach its edges."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from qti_builder import backup_rules
from qti_builder.canvas_rules import QTI12_NAMESPACE, _metadata
from qti_builder.diagnostics import DiagnosticSink
from qti_builder.readers.markdown import read_markdown
from qti_builder.readers.markdown.keys import entries_line
from qti_builder.validate import BACKUP_GRADES, _question_rules
from qti_builder.writers.moodle import MOODLE_GRADES


def _key_source(key: str) -> str:
    return ("---\ntitle: T\nlanguage: ko\n---\n\n"
            "1. 서울은 어느 나라의 수도인가?\n① 일본\n② 한국\n③ 중국\n\n"
            "2. 부산은 어디에 있나?\n① 한국\n② 일본\n③ 중국\n\n"
            f"[정답]\n{key}\n")


@pytest.mark.parametrize("key", ["1. ②  2. ①", "１．②　２．①", "정답 1.② 2.①", "1.②\t2.①"])
def test_a_key_in_any_digits_still_answers_its_questions(key: str) -> None:
    """ASCII and fullwidth digits (both Unicode's Nd, what the entry pattern's ``\\d`` reads), a
    key's title before its entries, a tab-separated grid: each entry answers its question."""
    sink = DiagnosticSink()
    read = read_markdown(_key_source(key), "t", "t.md", sink)
    assert read is not None and not sink.items
    correct = [[c.id for c in q.choices if c.correct] for q in read[0].iter_questions()]  # type: ignore[attr-defined]
    assert correct == [["B"], ["A"]]


@pytest.mark.parametrize("line", ["A) The placement group", "Answer: C", "정답: ②", "② ③ ①", "ア．鉄　イ．酸素",
                                  "Explanation: see the user guide.", "", "   ", "[정답]", "第一题 ②"])
def test_a_line_without_a_digit_holds_no_entry(line: str) -> None:
    assert entries_line(line) is None


@pytest.mark.parametrize(("line", "entries"), [
    ("１．②　２．①", [(1, "②", "", 2), (2, "①", "", 6)]),
    ("١. ب", [(1, "ب", "", 3)]),  # Arabic-Indic digits are Nd too
    ("정답 1.② 2.④", [(1, "②", "", 5), (2, "④", "", 9)]),
    ("1. ② 해설: 서울이 수도이다", [(1, "②", "서울이 수도이다", 3)]),
])
def test_a_line_with_a_digit_is_read_for_entries(line: str, entries: list[tuple[int, str, str, int]]) -> None:
    assert entries_line(line) == entries


def test_the_entries_kept_for_the_next_lines_are_a_fresh_list_each_time() -> None:
    """The reader asks twice of a question's first line; what one caller does with its list
    never reaches the next (the reading is kept, not the list)."""
    line = "1.② 2.① 3.④"
    first = entries_line(line)
    assert first is not None and len(first) == 3
    first.clear()
    again = entries_line(line)
    assert again == [(1, "②", "", 2), (2, "①", "", 6), (3, "④", "", 10)]
    assert again is not entries_line(line)


def _by_elementpath(item: etree._Element) -> dict[str, str]:
    """The metadata as an ElementPath reads it: the long way, which the walk must equal."""
    return {(f.findtext("{*}fieldlabel") or "").strip(): (f.findtext("{*}fieldentry") or "").strip()
            for f in item.iterfind("{*}itemmetadata/{*}qtimetadata/{*}qtimetadatafield")}


def _field(label: str | None, entry: str | None, ns: str = "") -> str:
    parts = "".join(f"<{tag}>{text}</{tag}>" if text is not None else f"<{tag}/>"
                    for tag, text in (("fieldlabel", label), ("fieldentry", entry)) if text != "-")
    return f"<qtimetadatafield>{parts}</qtimetadatafield>"


@pytest.mark.parametrize("ns", ["", f' xmlns="{QTI12_NAMESPACE}"', ' xmlns="urn:other"'])
@pytest.mark.parametrize("body", [
    # the usual: question_type and points_possible
    "<itemmetadata><qtimetadata>" + _field("question_type", "multiple_choice_question")
    + _field("points_possible", " 2 ") + "</qtimetadata></itemmetadata>",
    # a label given twice: the later one wins; an empty label and an empty entry; no entry at all
    "<itemmetadata><qtimetadata>" + _field("points_possible", "1") + _field("points_possible", "3")
    + _field(None, "x") + _field("a", None) + _field("b", "-") + "</qtimetadata></itemmetadata>",
    # two metadata blocks, two qtimetadata each, a comment between fields, a field too deep (not read)
    "<itemmetadata><qtimetadata>" + _field("a", "1") + "<!-- c -->" + _field("b", "2") + "</qtimetadata>"
    "<qtimetadata>" + _field("a", "9") + "<x>" + _field("deep", "no") + "</x></qtimetadata></itemmetadata>"
    "<itemmetadata><qtimetadata>" + _field("c", "3") + "</qtimetadata></itemmetadata>",
    # a label with markup inside: its own text only, as findtext gives it
    "<itemmetadata><qtimetadata><qtimetadatafield><fieldlabel>ab<i>c</i>d</fieldlabel>"
    "<fieldentry>e</fieldentry><fieldentry>f</fieldentry></qtimetadatafield></qtimetadata></itemmetadata>",
    # no metadata
    "<presentation/>",
])
def test_an_items_metadata_is_what_the_elementpath_reads(ns: str, body: str) -> None:
    item = etree.fromstring(f'<item ident="i1"{ns}>{body}</item>')
    assert _metadata(item) == _by_elementpath(item)


def _moodle_question(fractions: list[str]) -> etree._Element:
    answers = "".join(f'<answer fraction="{f}" format="html"><text>a{i}</text></answer>' for i, f in enumerate(fractions))
    return etree.fromstring(f'<question type="multichoice"><name><text>q</text></name><single>false</single>{answers}'
                            "</question>")


def _off_grade(problems: list[tuple[int, int, str]]) -> list[str]:
    return [m for _, _, m in problems if "is not one of Moodle's grade options" in m]


@pytest.mark.parametrize(("fraction", "accepted"), [
    ("100", True), ("0", True), ("-100", True), ("-0", True), ("50", True), ("83.33333", True),
    ("83.3333", True),  # within 0.001 of an option that is not exact
    ("83.3343", True), ("83.3345", False), ("33", False), ("99.9", False), ("-12.5", True), ("12.5001", True),
])
def test_moodle_grade_options_exact_or_within_the_tolerance(fraction: str, accepted: bool) -> None:
    question = _moodle_question(["100", fraction]) if fraction != "100" else _moodle_question(["100", "0"])
    off = _off_grade(list(_question_rules(question)))
    tolerant = any(abs(abs(float(fraction)) - g) <= 0.001 for g in MOODLE_GRADES)
    assert tolerant is accepted  # the rule as written: the tolerance alone decides
    assert (not off) is accepted


def _backup_question(fractions: list[str]) -> etree._Element:
    answers = "".join(f'<answer id="{i}"><fraction>{f}</fraction></answer>' for i, f in enumerate(fractions, 1))
    return etree.fromstring(f"<question><qtype>multichoice</qtype><plugin_qtype_multichoice_question><answers>{answers}"
                            "</answers><multichoice><single>0</single></multichoice></plugin_qtype_multichoice_question>"
                            "</question>")


@pytest.mark.parametrize(("fraction", "accepted"), [
    ("1.0000000", True), ("0.0000000", True), ("-1.0000000", True), ("0.5000000", True), ("0.8333333", True),
    ("0.1428571", True), ("0.1428650", True), ("0.1428700", False), ("0.4500000", False), ("0.9990000", False),
])
def test_backup_grade_options_exact_or_within_the_tolerance(fraction: str, accepted: bool) -> None:
    problems = list(backup_rules._one_question(_backup_question(["1.0000000", fraction]), BACKUP_GRADES))
    tolerant = any(abs(abs(float(fraction)) - g) <= 0.00001 for g in BACKUP_GRADES)
    assert tolerant is accepted
    assert (not _off_grade(problems)) is accepted


@pytest.mark.parametrize("text", [
    "plain 한국어 text {#q1}", "![alt](media/a.png)", "see ![x](y)", "<IMG src='media/a.png'>", "< img>", "<ſource>",
    "<ımg>", "[a](media/x.pdf)", "[a]( <media/x.pdf>)", "[a] (media/x.pdf)", '<a HREF = "media/d.csv">', "href='media/x'",
    "{points=2} no media", "a < b and c = d", "$x$", "a \\ b", "](", "!", "[", "", "=media/", "HREF=media/",
])
def test_a_source_may_hold_math_or_media_as_the_hint_pattern_says(text: str) -> None:
    """The marks looked for first ("![", "<", "](", "=") are in every match of the hint's
    pattern, whatever the case of its letters (``ſ``, ``ı`` and ``K`` fold into Latin letters):
    the answer is the pattern's alone."""
    from qti_builder.content import _MEDIA_HINT, may_hold_math_or_media

    assert may_hold_math_or_media(text) is ("$" in text or "\\" in text or _MEDIA_HINT.search(text) is not None)
    assert may_hold_math_or_media("x " * 1000 + text + " y" * 1000) is may_hold_math_or_media(text)


@settings(max_examples=400, deadline=None)
@given(text=st.lists(st.sampled_from(["$", "\\", "![", "<", "](", "=", "[", "]", "!", "(", "img", "IMG", "ſource", "media/",
                                      "href", "가", "a", " ", "\n"]), max_size=12).map("".join),
       tail=st.binary(max_size=3))
def test_a_source_s_bytes_may_hold_math_or_media_as_their_text_does(text: str, tail: bytes) -> None:
    """Asked of a source's bytes before they are decoded (``bytes_may_hold_math_or_media``, the
    cold build's look before it overlaps the checks): the answer of their text, decoded as the
    build decodes it, for any bytes (undecodable ones too)."""
    from qti_builder.content import bytes_may_hold_math_or_media, may_hold_math_or_media

    raw = text.encode("utf-8") + tail
    assert bytes_may_hold_math_or_media(raw) is may_hold_math_or_media(raw.decode("utf-8", "replace"))
