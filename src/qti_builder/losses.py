"""What each output loses of a quiz, so that ``build`` can say it every time.

Every target holds less than the model in some way: the Canvas package cannot carry some
questions' settings (the Canvas profile, :mod:`.profiles`), Moodle XML has no place for the quiz's
settings or a section's random draw, a QTI 2.1 package carries only some settings. ``build`` and
``check`` print a one-line count per output (``--verbose`` lists each loss), the JSON report
carries them per output, ``--strict`` counts them as failures, and ``--ignore`` or a question's
``ignore=`` accepts them by code.

Codes: QB601 what Canvas or Moodle loses of a question (their profiles), QB602 a quiz setting the output
has no place for, QB603 a random draw the output cannot make.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from .diagnostics import Diagnostic, DiagnosticSink, Severity, SourceSpan
from .i18n import counted, summary_words
from .model import Quiz, Section
from .profiles import check_profile
from .readers import SourceMap
from .writers import WRITERS

PROFILE_LOSS = "QB601"
SETTING_LOSS = "QB602"
DRAW_LOSS = "QB603"
#: Every code a loss may have (``--ignore`` takes them like warnings).
LOSS_CODES = (PROFILE_LOSS, SETTING_LOSS, DRAW_LOSS)

#: Each target's name in messages, and the profile of what its LMS loses of a question (when
#: there is one: the Canvas package, and Moodle (its XML and its quiz backup, which hold the same
#: question data) for the multiple-response scoring rules its multichoice cannot hold).
TARGETS = {"qti21": ("QTI 2.1", "qti21"), "moodle": ("Moodle", "moodle"), "canvas": ("Canvas", "canvas"),
           "moodle-quiz": ("Moodle quiz backup", "moodle")}
#: Targets that cannot draw questions at random from a section.
NO_DRAW = {"moodle": "Moodle XML cannot: random questions are slots of a Moodle quiz, not questions of the bank it fills. "
                     "All {count} questions of the section go into its category; add a random question drawing {select} "
                     "from that category to the quiz in Moodle"}
#: Targets whose random draw is worth one mark, whichever question it draws.
ONE_MARK_PER_DRAW = {"moodle-quiz": "each Moodle random slot has one mark: every drawn question is worth {points} points "
                                    "(the section's first question's), scaled from its own"}
#: Targets that draw questions at random only from a section's own questions: a section whose
#: draw takes its own questions and its subsections as units loses its draw there.
NO_NESTED_DRAW = {"moodle-quiz": "a Moodle random slot draws questions from one category, never a whole subsection: "
                                 "all {count} questions of the section are in the quiz, each in its own slot"}


@dataclass(frozen=True)
class Loss:
    """One thing an output loses. ``question`` is None for what belongs to the quiz (settings, draws)."""

    format: str
    code: str
    message: str
    span: SourceSpan | None
    question: str | None = None
    #: What a loss of the quiz is about: the setting's name, or the drawn section's id.
    subject: str | None = None

    def diagnostic(self, severity: Severity = Severity.WARNING, suffix: str = "") -> Diagnostic:
        accept = f"ignore={self.code} on the question or --ignore {self.code}" if self.question else f"--ignore {self.code}"
        page = "question-types" if self.question else "ci#what-each-output-loses"
        return Diagnostic(severity, self.code, self.message + suffix, self.span,
                          hint=f"see 'qti-builder docs {page}' for what {TARGETS[self.format][0]} keeps; accept it with {accept}")

    def render(self, language: str | None = None) -> str:
        """As ``build --verbose`` lists it: its place, code and message, the message in ``language``
        where the catalogs have it (messages.py)."""
        from .messages import translate

        where = f"{self.span}: " if self.span else ""
        return f"{where}{self.code}: {translate(self.message, language)}"


def quiz_losses(quiz: Quiz, source: SourceMap, spans: dict[str, SourceSpan], formats: list[str],
                of_questions: Mapping[str, list[Loss]] | None = None) -> list[Loss]:
    """What each of ``formats`` loses of ``quiz``, in the order of ``formats``, each in source
    order. ``of_questions``: what each target's profile loses of the questions, found already
    (:func:`profile_losses`, section by section); by default found here."""
    losses: list[Loss] = []
    for name in formats:
        label, profile = TARGETS[name]
        if of_questions is not None:
            found = list(of_questions.get(name, []))
        else:
            found = list(profile_losses(name, profile, quiz, spans)) if profile else []
        for setting in WRITERS[name].settings_not_carried(quiz):
            found.append(Loss(name, SETTING_LOSS, f"{label}: the quiz setting {setting} has no place in this file: set it in "
                                                  "the LMS after importing", source.locate(("settings", setting)), subject=setting))
        if name in NO_DRAW or name in NO_NESTED_DRAW:
            for loc, section in _sections(quiz):
                # A draw among nested sections only is the profile's (QB601, every target's).
                if section.select and (name in NO_DRAW or (section.sections and section.questions)):
                    reason = NO_DRAW.get(name) or NO_NESTED_DRAW[name]
                    count = sum(1 for _ in _questions(section))
                    found.append(Loss(name, DRAW_LOSS, f"{label}: the section '{section.id}' draws {section.select} "
                                      "at random, and " + reason.format(count=count, select=section.select),
                                      source.locate(loc + ("select",)), subject=section.id))
        if name in ONE_MARK_PER_DRAW:
            for loc, section in _sections(quiz):
                points = sorted({q.points for q in section.questions})
                if section.select and not section.sections and len(points) > 1:
                    found.append(Loss(name, DRAW_LOSS, f"{label}: the section '{section.id}' draws {section.select} at "
                                      f"random from questions worth {', '.join(f'{p:g}' for p in points)} points, and "
                                      + ONE_MARK_PER_DRAW[name].format(points=f"{section.questions[0].points:g}"),
                                      source.locate(loc + ("select",)), subject=section.id))
        losses += sorted(found, key=lambda loss: (loss.span or SourceSpan(""), loss.code))
    return losses


def profile_losses(target: str, profile: str, quiz: Quiz, spans: dict[str, SourceSpan],
                   sections: Iterable[Section] | None = None) -> Iterator[Loss]:
    """The profile's findings (``check --profile``'s warnings) as losses of ``target``, each with its
    question (of ``sections``, by default the quiz's). Two targets may share a profile (Moodle XML
    and the Moodle quiz backup hold the same question data): each has the losses as its own,
    never the other's."""
    sink = DiagnosticSink()
    check_profile(profile, quiz, spans, sink, sections)
    if not sink.items:
        return
    by_span = {span: ident for ident, span in spans.items()}
    for d in sink.items:
        yield Loss(target, d.code, d.message, d.span, by_span.get(d.span) if d.span else None)


def _sections(quiz: Quiz) -> Iterator[tuple[tuple[str | int, ...], Section]]:
    """Every section with its path in the model data (its key in the source map)."""

    def walk(prefix: tuple[str | int, ...], sections: list[Section]) -> Iterator[tuple[tuple[str | int, ...], Section]]:
        for i, section in enumerate(sections):
            yield prefix + (i,), section
            yield from walk(prefix + (i, "sections"), section.sections)

    yield from walk(("sections",), quiz.sections)


def _questions(section: Section) -> Iterator[object]:
    yield from section.questions
    for child in section.sections:
        yield from _questions(child)


def summary(name: str, losses: list[Loss], language: str | None = None) -> str:
    """One line of what an output loses: ``Canvas loses 12 things in 9 questions``, ``Moodle loses the
    quiz settings time_limit, allowed_attempts (set them in the LMS)``, or both joined by "and"; in
    ``language`` (i18n.py SUMMARY), English by default."""
    words = summary_words(language)
    on_questions = [loss for loss in losses if loss.question is not None]
    settings = [str(loss.subject) for loss in losses if loss.question is None and loss.code == SETTING_LOSS]
    draws = list(dict.fromkeys(f"'{loss.subject}'" for loss in losses if loss.question is None and loss.code == DRAW_LOSS))
    parts = []
    if on_questions:
        asked = len({loss.question for loss in on_questions})
        parts.append(words["things_in"].format(things=counted(words, "thing", len(on_questions)),
                                               questions=counted(words, "question", asked)))
    if draws:
        parts.append(words["draw_one" if len(draws) == 1 else "draw_many"].format(sections=", ".join(draws)))
    if settings:
        parts.append(words["setting_one" if len(settings) == 1 else "setting_many"].format(settings=", ".join(settings)))
    return words["loses"].format(target=words.get(f"target_{name}", TARGETS[name][0]), parts=words["loses_join"].join(parts))
