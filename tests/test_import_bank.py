"""Big banks (issue 13): the importer's shortcuts give exactly what the long way gives, nothing in
it grows with the square of the bank, and a bank in the shape bench/import_bank.py measures
(questions of every type in sections, built to Moodle XML by qti-builder itself) imports, is
written as a source that reads back, and builds again."""

from __future__ import annotations

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from qti_builder.importers.base import Ids, MediaStore
from qti_builder.importers.markup import _converted, html_to_markdown
from qti_builder.importers.markup.escaping import renders_as_text

#: Text runs near the edge of the one-paragraph shortcut: Markdown's and HTML's special
#: characters, spaces of all kinds, digits that start lists, Korean.
_EDGY = st.text(alphabet=string.ascii_letters[:6] + " 1.)-*_#>|[]$\\`~!:=+<&'\"\u00a0\t\n가", min_size=1, max_size=14)


@settings(max_examples=400, deadline=None)
@given(_EDGY)
def test_one_paragraph_shortcut_gives_what_the_converter_gives(text: str) -> None:
    fragment = f"<p>{text}</p>".strip()
    assert html_to_markdown(fragment) == _converted.__wrapped__(fragment)


def test_one_paragraph_shortcut_by_hand() -> None:
    # Plain: the text itself, exact.
    assert html_to_markdown("<p>The trial</p>").markdown == "The trial"
    assert html_to_markdown("<p>트라이얼 / 데이터셋: 설명입니다.</p>").markdown == "트라이얼 / 데이터셋: 설명입니다."
    # Not plain: the converter escapes what would otherwise mean something.
    assert html_to_markdown("<p>a [[b]]</p>").markdown == "a \\[\\[b]]"
    # A number that would start a list: not the shortcut's (the converter keeps it as HTML).
    assert html_to_markdown("<p>1. item</p>").raw
    assert html_to_markdown("<p>*not em*</p>").markdown == "\\*not em\\*"
    assert html_to_markdown("<p>a  b</p>").markdown == "a b"


def test_renders_as_text_by_hand() -> None:
    assert renders_as_text("The trial, again.")
    assert renders_as_text("a < b")  # escaped as the expected paragraph is
    assert not renders_as_text("*em*")
    assert not renders_as_text("- item")


def test_ids_take_the_next_free_suffix_and_reuse_a_released_one() -> None:
    ids = Ids()
    assert [ids.claim(None, "Question") for _ in range(4)] == ["Question", "Question-2", "Question-3", "Question-4"]
    assert ids.claim("Question-6", "x") == "Question-6"
    assert ids.claim(None, "Question") == "Question-5"
    assert ids.claim(None, "Question") == "Question-7"  # 6 was taken by name
    ids.release("Question-3")
    assert ids.claim(None, "Question") == "Question-3"
    assert ids.claim(None, "Question") == "Question-8"


def test_ids_of_many_alike_titles_stay_unique_and_in_order() -> None:
    ids = Ids()
    claimed = [ids.claim(None, "q") for _ in range(20_000)]
    assert claimed[:3] == ["q", "q-2", "q-3"] and claimed[-1] == "q-20000"
    assert len(set(claimed)) == 20_000


def test_media_of_the_same_bytes_is_one_file() -> None:
    media = MediaStore()
    assert media.add("a.png", b"one") == "media/a.png"
    assert media.add("b.png", b"one") == "media/a.png"
    second = media.add("a.png", b"two")
    assert second.startswith("media/a-") and second.endswith(".png")  # same name, other bytes: hashed
    assert media.add("c.png", b"two") == second
    assert list(media.files) == ["media/a.png", second]
