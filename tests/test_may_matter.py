"""The lines the pass over a large source's lines looks at (readers/markdown/pieces.py's
``_may_matter``): found by one search from each line's newline, they are exactly the lines from
``start`` whose first character is a heading's, a code fence's (a backtick, a tilde or
whitespace but a line's end) or a digit, for any lines."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from qti_builder.readers.markdown.pieces import _may_matter


def _by_first_character(lines: list[str], start: int) -> list[int]:
    return [i for i in range(start, len(lines))
            if lines[i][:1] and (lines[i][0] in "#`~" or lines[i][0].isdigit() or lines[i][0].isspace())]


#: First characters that matter and some that do not: Unicode digits and spaces, a line's
#: separators that are not its end (form feed, U+2028), letters, options' marks.
_FIRST = st.sampled_from(["#", "`", "~", "1", "٣", "３", " ", "\t", "\u3000", "\xa0", "\x0c", "\u2028", "\r", "A", "가",
                          "-", ")", "*", ""])


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(st.tuples(_FIRST, st.text(alphabet="ab #1 \t`", max_size=4)).map("".join), max_size=30),
       start=st.integers(0, 31))
def test_the_lines_found_are_those_by_their_first_character(lines: list[str], start: int) -> None:
    assert list(_may_matter(lines, start)) == _by_first_character(lines, start)


def test_the_first_and_last_lines_and_a_start_past_them() -> None:
    lines = ["# Part 1", "", "1. Q?", "A) a", "", "   ```", "2. R?"]
    assert list(_may_matter(lines, 0)) == [0, 2, 5, 6]
    assert list(_may_matter(lines, 2)) == [2, 5, 6]
    assert list(_may_matter(lines, 3)) == [5, 6]
    assert list(_may_matter(lines, 7)) == []
