"""Hypothesis strategies: generated quizzes of every kind, with text full of Markdown's and XML's
special characters."""

from __future__ import annotations

from hypothesis import strategies as st

from qti_builder.kinds import KINDS
from qti_builder.model import Quiz

WORDS = st.text(alphabet=st.sampled_from(list("abcXYZ 가나다한국어 <>&\"'`*_$#~{}|/\\%=]]>-\u00e9")), min_size=1, max_size=24).filter(
    lambda s: s.strip() != "")


IDENT = st.from_regex(r"[a-z][a-z0-9-]{0,10}", fullmatch=True)


@st.composite
def questions(draw: st.DrawFn, qid: str) -> dict:  # type: ignore[type-arg]
    kind = draw(st.sampled_from(list(KINDS)))
    base = {"type": kind, "id": qid, "stem": draw(WORDS), "points": draw(st.sampled_from([0.5, 1, 2, 3, 10]))}
    if draw(st.booleans()):
        base["feedback"] = {"general": draw(WORDS), "correct": draw(WORDS), "incorrect": draw(WORDS)}
    if kind in ("single_choice", "multiple_response"):
        n = draw(st.integers(2, 6))
        correct = draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=n if kind == "multiple_response" else 1))
        base["choices"] = [{"id": chr(65 + i), "text": draw(WORDS), "correct": i in correct,
                            "feedback": draw(st.one_of(st.none(), WORDS))} for i in range(n)]
        if kind == "multiple_response":
            base["negative_marking"] = draw(st.booleans())
    elif kind == "true_false":
        base["answer"] = draw(st.booleans())
    elif kind == "short_answer":
        base["answers"] = [{"text": draw(WORDS), "score": 100}] + [{"text": draw(WORDS), "score": 50} for _ in range(draw(st.integers(0, 2)))]
        base["case_sensitive"] = draw(st.booleans())
    elif kind == "numerical":
        base["answers"] = [{"value": draw(st.integers(-1000, 1000)) / 4, "tolerance": draw(st.sampled_from([0, 0.5, 2])), "score": 100}]
    elif kind in ("essay", "file_upload"):
        base["model_answer"] = draw(WORDS)
        if kind == "essay":
            base["response_format"] = draw(st.sampled_from(["editor", "plain", "monospaced"]))
            base["attachments"] = draw(st.integers(0, 2))
    elif kind == "matching":
        base["pairs"] = [{"prompt": f"{draw(WORDS)} {i}", "answer": f"{draw(WORDS)} {i}"} for i in range(draw(st.integers(2, 4)))]
    elif kind == "ordering":
        base["items"] = [f"{draw(WORDS)} {i}" for i in range(draw(st.integers(2, 5)))]
    elif kind == "fill_in_blank":
        base["stem"] = f"{draw(WORDS)} [[b1]] {draw(WORDS)} [[b2]]."
        base["blanks"] = [{"id": "b1", "kind": "text", "answers": [draw(WORDS)]},
                          {"id": "b2", "kind": "dropdown", "answers": [draw(WORDS)], "options": [f"{draw(WORDS)} x"]}]
    elif kind in ("calculated", "calculated_choice"):
        # Braces in these texts would be placeholders: the drawn words keep none.
        clean = lambda text: text.replace("{", "(").replace("}", ")")  # noqa: E731
        base["stem"] = clean(base["stem"]) + " {x} {y}"
        if "feedback" in base:
            base["feedback"] = {key: clean(text) for key, text in base["feedback"].items()}
        base["variables"] = [{"name": "x", "min": 1, "max": draw(st.integers(10, 50))},
                             {"name": "y", "formula": "x * 2.5", "decimals": 1}]
        base["sets"] = draw(st.integers(1, 5))
        if kind == "calculated":
            base.update(answer="x / 3 + y", tolerance=1, tolerance_mode="percent")
        else:
            base["choices"] = [{"id": "A", "text": "{=x + 1:0}", "correct": True}, {"id": "B", "text": "{=x + 2:0}"}]
    else:
        assert kind == "text_only", f"questions() draws no fields of {kind} questions: add them above"
        del base["points"]  # a text-only item scores nothing (points on one are an error)
    return base


#: Any combination of quiz settings, each within the model's range.
QUIZ_SETTINGS = st.fixed_dictionaries({}, optional={
    "time_limit": st.integers(1, 10080), "allowed_attempts": st.one_of(st.integers(1, 1000), st.just("unlimited")),
    "shuffle_answers": st.booleans(), "show_correct_answers": st.booleans(), "one_question_at_a_time": st.booleans(),
    "quiz_type": st.sampled_from(["graded", "practice"]), "lock_questions_after_answering": st.booleans(),
    "grading_method": st.sampled_from(["highest", "average", "first", "last"]),
})


@st.composite
def quizzes(draw: st.DrawFn) -> Quiz:
    ids = draw(st.lists(IDENT, min_size=1, max_size=5, unique=True))
    data = {"id": "generated", "title": draw(WORDS), "language": draw(st.sampled_from(["en", "ko"])),
            "settings": draw(QUIZ_SETTINGS),
            "sections": [{"id": "section-main", "title": draw(WORDS), "questions": [draw(questions("q-" + i)) for i in ids]}]}
    return Quiz.model_validate(data)
