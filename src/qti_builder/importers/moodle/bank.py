"""One Moodle XML file read as a question bank: its categories (which become sections) and what
every question has (name, stem, general feedback, grade, the penalty per wrong try, tags); a
type's own fields are read by :mod:`.readers`, calculated questions first fixed by
:mod:`.calculated`."""

from __future__ import annotations

import re
from pathlib import Path

from lxml import etree

from ...content import plain_text
from ...diagnostics import DiagnosticSink, SourceSpan
from ...model.common import storable_idnumber
from ...model.questions import BLANK_MARKER
from ...writers.moodle import PENALTY, MoodleXmlWriter
from ..base import LOST, UNSUPPORTED, ImportedQuiz, guess_language, keep_category_idnumbers, one_line, same_title
from ...plurals import plural
from .context import Context, Data, Reader, number
from .file import MoodleFile, quiz_category, split_category_path, strip_prefix
from .plugins import stack_summary
from .readers import TYPES

#: Moodle types the model has no form for, with what they are (the warning says it).
UNHOLDABLE = {
    "ddimageortext": "drag and drop onto an image",
    "ddmarker": "drag markers onto an image",
    "missingtype": "a question whose plugin the exporting site did not have",
}


#: The name Moodle gives the default question category of a course, a quiz or a category of
#: courses: its language string 'defaultfor' ("Default for {$a}"), as the language packs word it.
#: The site's language names the category, whatever the course is about.
DEFAULT_FOR = ("Default for {}", "Par défaut pour {}", "Défaut pour {}", "Standard für {}", "Por defecto en {}",
               "Default per {}", "Categoria predefinida de {}", "Standaard voor {}", "Domyślnie dla {}",
               "Förinställt standardvärde för {}", "افتراضي لـ {}", "{} için varsayılan", "{} alapbeállítása",
               "{} のデフォルト", "{} デフォルト", "{} 의 기본설정", "{}的預設")
DEFAULT_CATEGORY = re.compile("|".join(re.escape(w).replace(re.escape("{}"), r"\S.*") for w in DEFAULT_FOR))


def is_default_category(name: str) -> bool:
    return DEFAULT_CATEGORY.fullmatch(name.strip()) is not None


class BankReader(MoodleFile):
    def __init__(self, path: Path, display: str, sink: DiagnosticSink, questions: list[etree._Element]) -> None:
        super().__init__(display, sink)
        self.path = path
        self.elements = questions
        #: The short-answer questions of each category (a random short-answer matching question
        #: draws from them), and of each category with its subcategories: looked up once per
        #: question, however many there are.
        self.short_answers: dict[tuple[str, ...], list[str]] = {}
        self.short_answers_below: dict[tuple[str, ...], list[str]] = {}
        #: Whether the question being read is followed by more of its category.
        self.followed = False

    # -- categories ----------------------------------------------------------------------------

    def read(self) -> ImportedQuiz | None:
        declared, used = self._categories()
        root_path = quiz_category(list(declared) + used, used)
        root_info = declared.get(root_path, {})
        quiz_id = root_info.get("idnumber")
        # Moodle's default category of a course or quiz ("Default for BIO101") names no quiz: two
        # weekly exports of one course would be one quiz twice. The file's name is the quiz's.
        default = bool(root_path) and is_default_category(root_path[-1])
        title = root_path[-1] if root_path and not default else self.path.stem
        if default:  # its description is Moodle's ("The default category for questions shared in ..."), not the author's
            root_info = {**root_info, "description": None}
            declared[root_path] = root_info
        sections: dict[tuple[str, ...], Data] = {}
        current: tuple[str, ...] = root_path
        infos = declared

        def section_for(path: tuple[str, ...]) -> Data:
            if path in sections:
                return sections[path]
            below = path[len(root_path):]
            parent = section_for(path[:-1]) if len(below) > 1 else None
            info = infos.get(path, {})
            preferred = strip_prefix(info.get("idnumber"), quiz_id)
            own = info.get("idnumber") if below else None
            if own is not None and not storable_idnumber(own):
                self.builder.warn(LOST, f"category '{'/'.join(path)}': its ID number {own!r} cannot be kept as it is "
                                        "(not one line of at most 100 characters)", SourceSpan(self.display))
                own = None
            # The category's ID number as it is, which keep_category_idnumbers drops where the build
            # makes the same (the quiz's own category is the quiz's: its ID number is the quiz id).
            sections[path] = self.builder.section(path[-1] if below else title, parent, preferred,
                                                  description=info.get("description"),
                                                  moodle_idnumber=own)
            return sections[path]

        for index, element in enumerate(self.elements):
            kind = (element.get("type") or "").strip().lower()
            if kind == "category":
                current = self._category_path(element) or current
                continue
            name = one_line(self._text(element, "name")) or f"question on line {element.sourceline}"
            entry = TYPES.get(kind)
            if entry is None:
                self._unsupported(element, kind, name, current)
                continue
            self.followed = self._followed_by_questions(index)
            data = self._question(element, entry, name, quiz_id)
            if data is None:
                continue
            section = section_for(current if len(current) >= len(root_path) else root_path)
            own = self._value(element, "idnumber") or None
            preferred = strip_prefix(own, quiz_id)
            expanded = data.pop("_section", None)
            if expanded is None:
                # The ID number as it is, which the builder drops where the build gives it from the
                # question's id (W3-Q1), or where another question of the category has it.
                if own is not None and not storable_idnumber(own):
                    self.builder.warn(LOST, f"question '{name}': its ID number {own!r} cannot be kept as it is (not one line "
                                            "of at most 100 characters); a build gives it one made from its id", self.span(element))
                    own = None
                self.builder.add(section, {**data, "moodle_idnumber": own}, self.span(element), name, preferred, kind=kind)
                continue
            # A question that becomes a section of questions (multiple true/false).
            rows = self.builder.section(expanded["title"], section, preferred, description=expanded["description"],
                                        shuffle=expanded["shuffle"] or None)
            for number, row in enumerate(expanded["questions"], 1):
                self.builder.add(rows, row, self.span(element), f"{name} ({number})", kind=kind)
        language = guess_language(self.texts)
        self.builder.warn(LOST, f"Moodle XML does not record the quiz's language; '{language}' was taken from its text",
                          SourceSpan(self.display), hint="change 'language:' in the source if that is wrong")
        quiz = self.builder.build(quiz_id, title, language, root_info.get("description"))
        if quiz is None:
            return None
        if quiz_id and quiz_id != quiz.id:
            # The quiz's category's ID number is no id ('BIO W3'): kept as it is, where Moodle keeps it.
            if storable_idnumber(quiz_id):
                quiz = quiz.model_copy(update={"moodle_idnumber": quiz_id})
            else:
                self.builder.warn(LOST, f"the quiz's category's ID number {quiz_id!r} cannot be kept as it is (not one line of "
                                        f"at most 100 characters); a build gives it the quiz id '{quiz.id}'", SourceSpan(self.display))
        idnumbers = {s.id: s.moodle_idnumber for _, s in quiz.iter_sections() if s.moodle_idnumber is not None}
        quiz, dropped = keep_category_idnumbers(quiz, idnumbers)
        for section_id, ident in dropped:
            self.builder.warn(LOST, f"section '{section_id}': its category's ID number '{ident}' is another category's too "
                                    "(of another context, or the quiz's); a build gives it one made from its id",
                              SourceSpan(self.display))
        imported = self.builder.imported(quiz)
        imported.category_idnumbers = idnumbers
        return imported

    def _categories(self) -> tuple[dict[tuple[str, ...], Data], list[tuple[str, ...]]]:
        """Declared categories (path -> idnumber, description) and the paths questions are in.
        Also notes each category's short-answer questions, which a random short-answer matching
        question draws from."""
        declared: dict[tuple[str, ...], Data] = {}
        used: list[tuple[str, ...]] = []
        current: tuple[str, ...] = ()
        for element in self.elements:
            if (element.get("type") or "").strip().lower() == "shortanswer":
                name = one_line(self._text(element, "name")) or f"question on line {element.sourceline}"
                self.short_answers.setdefault(current, []).append(name)
                for depth in range(len(current) + 1):
                    self.short_answers_below.setdefault(current[:depth], []).append(name)
            if (element.get("type") or "").strip().lower() == "category":
                current = self._category_path(element)
                info: Data = {"idnumber": self._value(element, "idnumber") or None}
                info_element = self._child(element, "info")
                if info_element is not None:
                    info["description"] = self._rich(info_element, self.span(element), "category description") or None
                declared.setdefault(current, info)
            else:
                used.append(current)
        return declared, used

    def _category_path(self, element: etree._Element) -> tuple[str, ...]:
        return split_category_path(self._text(element, "category"))

    # -- one question --------------------------------------------------------------------------

    def _question(self, element: etree._Element, entry: tuple[str, Reader], name: str, quiz_id: str | None) -> Data | None:
        kind, reader = entry
        span = self.span(element)
        own_stem = kind == "fill_in_blank"  # its reader makes the stem, with the blanks in it
        stem = self._rich(self._child(element, "questiontext"), span, f"question '{name}'") if not own_stem else ""
        stem = self._legacy_image(element, stem) if not own_stem else ""
        data: Data = {"type": kind, "stem": stem, "feedback": {}, "tags": self._tags(element)}
        general = self._rich(self._child(element, "generalfeedback"), span, f"the general feedback of '{name}'")
        if general:
            data["feedback"]["general"] = general
        grade = number(self._value(element, "defaultgrade"))
        if grade is not None:
            data["points"] = grade
        context = Context(self, element, span, name, data)
        if reader(context) is False:
            return None
        if own_stem:
            data["stem"] = self._legacy_image(element, data["stem"])
        hints = [h for h in element.findall("hint") if (h.findtext("text") or h.text or "").strip()]
        if hints:
            context.lost.append(f"{plural(len(hints), 'hint')} shown between tries")
        if context.section is not None:
            data["_section"] = context.section
            if self.followed:
                context.lost.append("its place among the questions of its category (its section follows them)")
        if context.lost:
            self.builder.warn(LOST, f"question '{name}': not kept: {'; '.join(context.lost)}", span)
        derived = plain_text(BLANK_MARKER.sub("___", data["stem"]), 100) if data.get("stem") else ""
        if name and not same_title(name, derived) and not name.startswith("question on line"):
            data["title"] = name
        penalty = self._value(element, "penalty")
        # The penalty our writer gives the kind (Moodle's default, or the kind's own).
        expected = MoodleXmlWriter.adapters[kind].penalty if kind in MoodleXmlWriter.adapters else PENALTY
        penalty_value = number(penalty)
        if penalty_value is not None and abs(penalty_value - float(expected)) > 1e-6 and kind != "text_only":
            self.builder.warn(LOST, f"question '{name}': the penalty per wrong try ({penalty}) is a Moodle quiz setting the source does not hold", span)
        return data

    def _unsupported(self, element: etree._Element, kind: str, name: str, category: tuple[str, ...]) -> None:
        """A question of a type the model cannot hold: reported at its line, naming the type and why."""
        span = self.span(element)
        where = "/".join(category) or "top"
        subcategories = self._value(element, "subcats") not in ("0", "false")
        if kind == "randomsamatch":
            choose = self._value(element, "choose") or "?"
            below = (self.short_answers_below if subcategories else self.short_answers).get(category, [])
            listed = (", ".join(f"'{n}'" for n in below[:5]) + (f" and {len(below) - 5} more" if len(below) > 5 else "")
                      if below else "none of them is in this file")
            self.builder.skip(kind or "(none)", UNSUPPORTED, f"question '{name}' (random short-answer matching, randomsamatch) draws {choose} of the "
                                           f"short-answer questions of category '{where}'"
                                           f"{' and its subcategories' if subcategories else ''} ({listed}) into a matching "
                                           "question at random; the source cannot draw questions into one question; skipped",
                              span, hint="write a matching question of those short answers by hand")
            return
        if kind == "random":
            include = self._text(element, "questiontext").strip() in ("1", "true")
            self.builder.skip(kind or "(none)", UNSUPPORTED, f"question '{name}' (random) draws one question of category '{where}'"
                                           f"{' and its subcategories' if include else ''} at random; skipped", span,
                              hint="a section with select: 1 draws one of its questions: move the category's questions "
                                   "into a section of their own")
            return
        if kind == "stack":
            self.builder.skip(kind, UNSUPPORTED, f"question '{name}' has the type 'stack', which cannot be imported: STACK checks answers "
                                                 "by computer algebra from its question variables, and the source holds no computed "
                                                 f"answer ({stack_summary(element)}); skipped", span,
                              hint="write the question with its answer worked out, by hand")
            return
        reason = UNHOLDABLE.get(kind)
        if reason:
            self.builder.skip(kind or "(none)", UNSUPPORTED, f"question '{name}' ({reason}, {kind}) cannot be imported; skipped", span,
                              hint="the source has no such question type; rebuild it from the types the source has")
            return
        self.builder.skip(kind or "(none)", UNSUPPORTED, f"question '{name}' has the type '{kind or '(none)'}', which cannot be imported; skipped",
                          span, hint=f"importable types: {', '.join(sorted(TYPES))}")

    def _followed_by_questions(self, index: int) -> bool:
        """Is the question at ``index`` followed by more questions of its category?"""
        if index + 1 >= len(self.elements):  # (no slice of the rest: that is quadratic in a bank)
            return False
        return (self.elements[index + 1].get("type") or "").strip().lower() != "category"
