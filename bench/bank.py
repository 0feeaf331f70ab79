"""Large mixed question banks for the benchmarks, written in qti-builder's Markdown and in
text2qti's own syntax from one neutral description, so both tools build the same questions.

A bank cycles through every question kind qti-builder supports (``KINDS``); ``TEXT2QTI_KINDS``
is the part text2qti 0.8 can express, used for the side-by-side comparison. Text alternates
between Korean and English, and some stems carry inline code, a fenced code block or TeX math,
so the content renderer does the work a real bank gives it; a *plain* bank (``plain=True``, issue
34) has none of them: plain Korean and English sentences, where text2qti's Markdown costs little.
Everything is drawn from a seeded ``random.Random``: the same arguments give the same bytes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

#: Every kind of the model, in the order a bank cycles through them.
KINDS = ("single_choice", "multiple_response", "true_false", "short_answer", "numerical", "essay",
         "file_upload", "matching", "ordering", "fill_in_blank", "text_only")
#: What text2qti 0.8 writes (its syntax has no true/false, matching, ordering or blanks of ours).
TEXT2QTI_KINDS = ("single_choice", "multiple_response", "short_answer", "numerical", "essay")
#: File name suffix of a bank of these kinds (others: the kinds' names).
BANK_SUFFIX = {KINDS: "", TEXT2QTI_KINDS: "-t2q"}
#: Questions per section: a bank reads like many chapters, and numbers stay within four digits
#: (a Markdown source numbers its questions per section, so a 100,000-question bank reads too).
SECTION_SIZE = 200

WORDS = {
    "en": ("worker", "checkpoint", "gradient", "scheduler", "trial", "dataset", "cluster", "batch", "epoch",
           "learning rate", "replica", "metric", "trainer", "placement group", "actor", "object store"),
    "ko": ("워커", "체크포인트", "그래디언트", "스케줄러", "트라이얼", "데이터셋", "클러스터", "배치", "에폭",
           "학습률", "복제본", "지표", "트레이너", "배치 그룹", "액터", "객체 저장소"),
}
STEMS = {
    "en": ("Which statement about the {a} and the {b} is correct?", "What happens to the {a} when the {b} fails?",
           "How does the {a} relate to the {b} in a distributed run?"),
    "ko": ("{a}와(과) {b}에 대한 설명으로 옳은 것은 무엇인가요?", "{b}가 실패하면 {a}에는 어떤 일이 일어나나요?",
           "분산 실행에서 {a}와(과) {b}의 관계는 무엇인가요?"),
}
CODE = ('def train(config):\n    for epoch in range(config["epochs"]):\n        loss = step(epoch)  # 손실\n'
        '    return {"loss": loss}')
MATH = ("$x^2 + y^2 = z^2$", r"$\frac{a}{b} \le \sqrt{c}$", r"$\sum_{i=1}^{n} i = \frac{n(n+1)}{2}$")


@dataclass
class Question:
    """One question, neutral: both writers below read it."""

    id: str
    kind: str
    language: str
    stem: str
    #: Options or items: (text, correct) for choices; prompts -> answers for matching.
    choices: list[tuple[str, bool]] = field(default_factory=list)
    answers: list[str] = field(default_factory=list)
    pairs: list[tuple[str, str]] = field(default_factory=list)
    number: float = 0.0
    tolerance: float = 0.0
    code: str | None = None
    explanation: str = ""


@dataclass
class Bank:
    title: str
    questions: list[Question]
    section_size: int = SECTION_SIZE

    def sections(self) -> Iterator[tuple[int, list[Question]]]:
        size = self.section_size
        for start in range(0, len(self.questions), size):
            yield start // size + 1, self.questions[start:start + size]


def generate(count: int, seed: int = 8, kinds: tuple[str, ...] = KINDS, section_size: int = SECTION_SIZE,
             plain: bool = False) -> Bank:
    rng = random.Random(f"{seed}/{count}/{','.join(kinds)}")
    questions = [_question(rng, n, kinds[n % len(kinds)], plain) for n in range(count)]
    return Bank(f"Benchmark bank of {count} questions", questions, section_size)


def _question(rng: random.Random, n: int, kind: str, plain: bool = False) -> Question:
    language = "ko" if n % 2 else "en"
    words = WORDS[language]
    a, b = rng.sample(words, 2)
    # Numbered: text2qti refuses two questions with the same text.
    stem = f"{n + 1}: " + rng.choice(STEMS[language]).format(a=a, b=b)
    if n % 5 == 0 and not plain:
        stem += f" (`{rng.choice(['ScalingConfig', 'RunConfig', 'tune.Tuner', 'session.report'])}`)"
    if n % 7 == 0 and not plain:
        stem += " " + rng.choice(MATH)
    question = Question(f"q{n:05d}", kind, language, stem, code=CODE if n % 11 == 0 and not plain else None,
                        explanation=f"{a} / {b}: " + ("설명입니다." if language == "ko" else "see the user guide."))
    BUILDERS[kind](rng, question, words)
    return question


def _options(rng: random.Random, words: tuple[str, ...], correct: int, total: int = 4) -> list[tuple[str, bool]]:
    texts = rng.sample(words, total)
    marks = [True] * correct + [False] * (total - correct)
    rng.shuffle(marks)
    return [(f"The {t}" if t.isascii() else f"{t}입니다", mark) for t, mark in zip(texts, marks)]


def _single(rng: random.Random, q: Question, words: tuple[str, ...]) -> None:
    q.choices = _options(rng, words, 1)


def _multiple(rng: random.Random, q: Question, words: tuple[str, ...]) -> None:
    q.choices = _options(rng, words, 2)


def _true_false(rng: random.Random, q: Question, words: tuple[str, ...]) -> None:
    q.answers = [rng.choice(["true", "false"])]


def _short(rng: random.Random, q: Question, words: tuple[str, ...]) -> None:
    q.answers = [w for w in rng.sample(words, 2)]


def _numerical(rng: random.Random, q: Question, words: tuple[str, ...]) -> None:
    q.number, q.tolerance = rng.randint(10, 512), rng.choice([0, 0.5, 2])


def _essay(rng: random.Random, q: Question, words: tuple[str, ...]) -> None:
    q.answers = [" ".join(rng.sample(words, 6))]


def _matching(rng: random.Random, q: Question, words: tuple[str, ...]) -> None:
    chosen = rng.sample(words, 6)
    q.pairs = [(chosen[i], chosen[i + 3]) for i in range(3)]


def _ordering(rng: random.Random, q: Question, words: tuple[str, ...]) -> None:
    q.answers = rng.sample(words, 4)


def _nothing(rng: random.Random, q: Question, words: tuple[str, ...]) -> None:
    pass


BUILDERS: dict[str, Callable[[random.Random, Question, tuple[str, ...]], None]] = {
    "single_choice": _single, "multiple_response": _multiple, "true_false": _true_false,
    "short_answer": _short, "numerical": _numerical, "essay": _essay, "file_upload": _nothing,
    "matching": _matching, "ordering": _ordering, "fill_in_blank": _short, "text_only": _nothing,
}


# -- qti-builder Markdown ---------------------------------------------------------------------


def to_markdown(bank: Bank, quiz_id: str) -> str:
    lines = ["---", f"id: {quiz_id}", f"title: {bank.title}", "language: ko", "---", ""]
    for number, questions in bank.sections():
        lines += [f"# Part {number} {{#part-{number}}}", ""]
        for position, q in enumerate(questions, 1):
            lines += _markdown_question(position, q)
    return "\n".join(lines)


def _markdown_question(position: int, q: Question) -> list[str]:
    explicit = q.kind not in ("single_choice", "multiple_response", "true_false")
    attrs = f"#{q.id}" + (f" type={q.kind}" if explicit else "")
    stem = q.stem
    if q.kind == "fill_in_blank":
        stem += f" [[{' | '.join(q.answers)}]]"
    lines = [f"{position}. {stem} {{{attrs}}}", ""]
    if q.code:
        lines += ["   ```python", *("   " + line for line in q.code.splitlines()), "   ```", ""]
    letters = "ABCDEFGH"
    if q.choices:
        lines += [f"{letters[i]}) {text}" for i, (text, _) in enumerate(q.choices)]
        lines += ["", "Answer: " + ", ".join(letters[i] for i, (_, ok) in enumerate(q.choices) if ok)]
    elif q.kind == "matching":
        lines += [f"- {prompt} -> {answer}" for prompt, answer in q.pairs] + [""]
    elif q.kind == "ordering":
        lines += [f"- {item}" for item in q.answers] + [""]
    elif q.kind in ("short_answer", "true_false"):
        lines += [f"Answer: {a}" for a in q.answers]
    elif q.kind == "numerical":
        lines += [f"Answer: {q.number:g}" + (f" ± {q.tolerance:g}" if q.tolerance else "")]
    elif q.kind == "essay":
        lines += [f"Answer: {q.answers[0]}"]
    if q.kind != "text_only":
        lines += [f"Explanation: {q.explanation}"]
    return lines + [""]


# -- text2qti -------------------------------------------------------------------------------


def to_text2qti(bank: Bank) -> str:
    """text2qti 0.8's syntax (its README): ``*b)`` marks the right choice, ``[*]`` the right
    boxes, ``*`` lines short answers, ``=`` a number, ``____`` an essay, ``...`` feedback."""
    lines = [f"Quiz title: {bank.title}", "Quiz description: benchmark", ""]
    for q in bank.questions:
        if q.kind not in TEXT2QTI_KINDS:
            raise ValueError(f"text2qti cannot write {q.kind} questions")
        lines += [f"1.  {q.stem}"]
        if q.code:
            lines += ["", "    ```python", *("    " + line for line in q.code.splitlines()), "    ```"]
        lines += [f"... {q.explanation}"]
        letters = "abcdefgh"
        if q.kind == "single_choice":
            lines += [f"{'*' if ok else ''}{letters[i]}) {text}" for i, (text, ok) in enumerate(q.choices)]
        elif q.kind == "multiple_response":
            lines += [f"[{'*' if ok else ' '}] {text}" for text, ok in q.choices]
        elif q.kind == "short_answer":
            lines += [f"*   {a}" for a in q.answers]
        elif q.kind == "numerical":
            lines += [f"=   {q.number:g}" + (f" +- {q.tolerance:g}" if q.tolerance else "")]
        else:
            lines += ["____"]
        lines += [""]
    return "\n".join(lines)


def write_bank(folder: Path, count: int, kinds: tuple[str, ...] = KINDS, text2qti: bool = False,
               seed: int = 8, name: str | None = None, section_size: int = SECTION_SIZE, plain: bool = False) -> dict[str, Path]:
    """The bank as ``<folder>/bank-<count>.md`` (and ``.t2q.txt`` in text2qti's syntax); ``name``
    and ``seed`` make another bank of the same size (its quiz id is its name); sections of
    ``section_size`` questions (other than the default: ``-s<size>`` in the name); ``plain``:
    no inline code, code blocks or math (``-plain`` in the name)."""
    bank = generate(count, seed=seed, kinds=kinds, section_size=section_size, plain=plain)
    folder.mkdir(parents=True, exist_ok=True)
    quiz_id = name or f"bank-{count}" + BANK_SUFFIX.get(kinds, "-" + "-".join(k.replace("_", "") for k in kinds))
    if section_size != SECTION_SIZE and not name:
        quiz_id += f"-s{section_size}"
    if plain and not name:
        quiz_id += "-plain"
    paths = {"md": folder / f"{quiz_id}.md"}
    paths["md"].write_text(to_markdown(bank, quiz_id), encoding="utf-8")
    if text2qti:
        paths["text2qti"] = folder / f"{quiz_id}.t2q.txt"
        paths["text2qti"].write_text(to_text2qti(bank), encoding="utf-8")
    return paths
