"""Question kinds: one spec per kind, from which every stage's kind tables are derived.

A kind is a model class (:mod:`.model.questions`, or a module of its own in :mod:`.model.kinds`)
and a :class:`KindSpec` in :data:`KINDS`: its words, how it is scored, how the Markdown dialect
writes it, what an LMS loses, its cells of the docs' tables, and what every stage does with it.
A stage's part is named by dotted path (``"writers.canvas:_choice"``, from the package), so this
module stays below the stages it names; each stage derives its registry from the specs with
:class:`KindTable`, which looks the functions up when the stage first uses the table:

===================  ===============================  ===============================================
``KindSpec`` field   the stage's registry             what the part is
===================  ===============================  ===============================================
``qti21``            ``Qti21Writer.adapters``         template, context function, interaction
``canvas``           ``CanvasWriter.adapters``        template, context function
``moodle``           ``MoodleXmlWriter.adapters``     template, ``QuestionContext`` method, penalty
``preview``          ``preview.PREVIEW_KINDS``        templates and view
``markdown_reader``  ``readers/markdown BUILDERS``    the Markdown reader's builder
``markdown_form``    ``MARKDOWN_FORMS``               how ``qti-builder import`` writes it as Markdown
``answer_words``     ``summary.ANSWER_WORDS``         its answer in a few words (``--verbose``)
``canvas_checks``    ``profiles.CANVAS_KIND_CHECKS``  what Canvas loses of one question, by its settings
``qti21_import``     ``importers/qti21 READERS``      the QTI 2.1 importer's reader, its interactions
``docs``             :func:`docs_tables`              its cells of the docs' tables of every kind
===================  ===============================  ===============================================

The ``Question`` union is made from the kinds' modules (:mod:`.model.union`).
``tests/test_kinds.py`` walks every kind through every table (:data:`TABLES`) and fails, naming
the part, until the kind has each. The README's "Adding a question kind" lists what a new kind
writes.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from .model.parametric import CalculatedChoiceQuestion, CalculatedQuestion
from .model.questions import (EssayQuestion, FileUploadQuestion, FillInBlankQuestion, MatchingQuestion,
                              MultipleResponseQuestion, NumericalQuestion, OrderingQuestion, QuestionBase,
                              ShortAnswerQuestion, SingleChoiceQuestion, TrueFalseQuestion)
from .model.kinds.text_only import TextOnlyItem

#: How a kind is scored: ``all_or_nothing`` (right or wrong), ``partial`` (answers, pairs or
#: blanks worth part of the points), ``by_hand`` (a person grades it) or ``none`` (nothing is
#: answered: text shown between questions).
Scoring = Literal["all_or_nothing", "partial", "by_hand", "none"]

#: How the Markdown dialect writes a kind's answer (docs/source-format.md): ``options`` (lettered
#: options ``A) ...`` and ``Answer: B``), ``list`` (a bullet list after the question text, which
#: is the answer itself), ``answers`` (one or more ``Answer:`` lines, each with an optional
#: ``(50%)`` score and its own feedback) or ``one`` (at most one ``Answer:`` block, or none).
MarkdownAnswer = Literal["options", "list", "answers", "one"]


#: A function of a stage, by dotted path from the package: ``"writers.canvas:_choice"``,
#: ``"writers.moodle:QuestionContext._essay"``. :func:`resolve` finds it.
Dotted = str


@dataclass(frozen=True)
class Writes:
    """How one target writes the kind: its template (in ``templates/``) and the function that
    computes what the template shows beyond the question itself."""

    template: str
    context: Dotted


@dataclass(frozen=True)
class Qti21Writes(Writes):
    #: The interaction the kind becomes (also written to the manifest's qtiMetadata); None: none.
    interaction: str | None = None


@dataclass(frozen=True)
class MoodleWrites(Writes):
    """The context function is a ``QuestionContext`` method."""

    #: The Moodle question type the template writes (``match``), which the quiz backup writes too
    #: (``templates/moodle_backup/question_<qtype>.xml.j2``).
    qtype: str
    #: The penalty per wrong try; None: the writer's default (writers/moodle.py PENALTY).
    penalty: str | None = None


@dataclass(frozen=True)
class Shows:
    """How the preview shows the kind: what a student sees, what "show answer" shows (None: no
    answer to show), and the view function that computes what both templates need."""

    template: str
    answer_template: str | None
    view: Dotted


@dataclass(frozen=True)
class MarkdownForm:
    """How ``qti-builder import`` writes the kind as Markdown (writers/markdown_source.py): its
    answer's lines after the question text, the question text as written (None: the stem itself),
    and whether the question line names its type (None: always)."""

    answer: Dotted
    stem: Dotted | None = None
    needs_type: Dotted | None = None


@dataclass(frozen=True)
class Qti21Import:
    """How the QTI 2.1 importer reads the kind: its reader, the interaction whose items (of one
    interaction) are of this kind, and the sets of interactions one item of the kind holds
    (several, or none). The importer's tables of interactions are made from these
    (importers/qti21/item.py ``INTERACTION_KINDS``, ``SEVERAL_INTERACTIONS``)."""

    reader: Dotted
    interactions: tuple[str, ...] = ()
    #: Where another kind claims one of the interactions too: the function that tells this kind's
    #: items by their interaction (``(ItemContext, interaction element) -> bool``). The kinds
    #: that tell are asked first, in KINDS order; the one kind that does not takes the rest. An
    #: interaction no other kind claims is this kind's whatever the function says.
    tells: Dotted | None = None
    #: The interactions of an item that is one question of this kind although it holds several
    #: of them (blanks in a text, an essay with files attached), or none (the empty set: a text
    #: shown between questions). Several of one interaction make one question where it is a set
    #: alone (``frozenset({"uploadInteraction"})``).
    together: tuple[frozenset[str], ...] = ()


@dataclass(frozen=True)
class Documented:
    """What the docs' tables say of the kind, a cell of Markdown each (links relative to docs/).

    The tables of every kind in docs/question-types.md and docs/source-format.md are made from the
    specs (:func:`docs_tables`, between ``<!-- kinds: NAME -->`` markers): ``tools/kind_docs.py``
    writes them, ``tests/test_kinds.py`` checks them. A kind's prose (a section, or a page of its
    own, ``docs/kind-my-kind.md``) is linked from its cells."""

    #: The overview (question-types.md): the QTI 2.1 item, the Moodle XML question, the Canvas
    #: package's question in Canvas Classic Quizzes, and what Moodle makes of its import.
    qti21: str
    moodle: str
    canvas: str
    moodle_after: str
    #: What New Quizzes' parser reads of the Canvas package (question-types.md#in-new-quizzes),
    #: and what a Classic quiz migrated to New Quizzes adds to that.
    new_quizzes: str
    #: Its fields in a YAML source besides the common ones, with their defaults (source-format.md).
    yaml_fields: str
    new_quizzes_migrated: str = "—"


@dataclass(frozen=True)
class KindSpec:
    """What every stage needs to know about one question kind."""

    #: The model class; its ``type`` default is the kind's name.
    model: type[QuestionBase]
    #: How summaries and reports name it ("8 single choice, 2 essay").
    words: str
    scoring: Scoring
    #: The attributes its Markdown question line takes besides the common ones (``{shuffle=false}``).
    markdown_attributes: tuple[str, ...] = ()
    markdown_answer: MarkdownAnswer = "one"
    #: What an LMS loses for every question of the kind, by ``check --profile`` name. Losses that
    #: depend on a question's settings are per-kind checks in :mod:`.profiles`.
    losses: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: The words its preview templates show besides the preview's own (i18n.py PREVIEW), by
    #: language (English is the fallback): ``{"en": {"pairs": "Correct pairs"}, "ko": {...}}``.
    preview_words: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    #: Its name in the other languages of the preview (i18n.py PREVIEW), by language, where the
    #: preview's outline names each question's kind (English: ``words``).
    names: Mapping[str, str] = field(default_factory=dict)

    #: Its cells of the docs' tables (None: missing, which tests/test_kinds.py names).
    docs: Documented | None = None

    # -- what each stage does with it (None: missing, which tests/test_kinds.py names) ----------
    qti21: Qti21Writes | None = None
    canvas: Writes | None = None
    moodle: MoodleWrites | None = None
    preview: Shows | None = None
    #: The Markdown reader's builder: a ``QuestionBuilder`` method, or a function taking one.
    markdown_reader: Dotted | None = None
    markdown_form: MarkdownForm | None = None
    #: Its answer in a few words for ``check --verbose`` (summary.py), from (question, language, words).
    answer_words: Dotted | None = None
    #: What Canvas loses of one question of the kind by its settings (profiles.py), from (quiz, question).
    canvas_checks: Dotted | None = None
    qti21_import: Qti21Import | None = None

    @property
    def name(self) -> str:
        """The kind's name: the model's ``type`` (``single_choice``)."""
        name = self.model.model_fields["type"].default
        assert isinstance(name, str)
        return name

    @property
    def answered(self) -> bool:
        """Does a student answer it? A text-only item is shown, not answered: no number in the
        preview, no feedback in any output."""
        return self.scoring != "none"

    @property
    def machine_scored(self) -> bool:
        """Does it have a correct response a machine can check (QTI 2.1 ``solutionAvailable``)?"""
        return self.scoring in ("all_or_nothing", "partial")

    @property
    def outcome_feedback(self) -> tuple[str, ...]:
        """The feedback besides general feedback that scoring can show: correct and incorrect, and
        partially correct where part of the points can be earned; none for kinds graded by a
        person or not at all."""
        return {"all_or_nothing": ("correct", "incorrect"),
                "partial": ("correct", "partially_correct", "incorrect")}.get(self.scoring, ())

    @property
    def shuffled(self) -> bool:
        """Does the author choose whether its options are shuffled (a ``shuffle`` field)?"""
        return "shuffle" in self.model.model_fields


#: Every kind, by name, in the order summaries and the docs list them.
KINDS: dict[str, KindSpec] = {spec.name: spec for spec in (
    KindSpec(
        SingleChoiceQuestion, "single choice", "all_or_nothing", names={"ko": "단일 선택", "ja": "単一選択", "zh": "单选"},
        markdown_attributes=("shuffle", "numbering"), markdown_answer="options",
        docs=Documented(
            qti21="`choiceInteraction` `maxChoices=\"1\"`; all or nothing",
            moodle="`multichoice`, single; fractions 100 / 0",
            canvas="multiple choice, every option with its comment; `{fixed}` is not kept",
            moodle_after="as written; `fixed` is lost",
            new_quizzes="multiple choice: every answer, the right one, general, correct and incorrect feedback and "
                        "each answer's feedback (`interactions/choice_interaction.rb`, "
                        "`interactions/base_interaction.rb`)",
            yaml_fields="`choices` (at least 2, exactly one with `correct: true`), `shuffle` (`true`), `numbering` "
                        "(how the options are numbered: `upper-alpha`, `lower-alpha`, `decimal`, "
                        "`parenthesized-decimal`, `circled-decimal`, `hangul`, `hangul-consonant`, `katakana`; none: "
                        "A, B, C)"),
        qti21=Qti21Writes("qti21/item_choice.xml.j2", "writers.qti21:_single_choice", "choiceInteraction"),
        canvas=Writes("canvas/item_choice.xml.j2", "writers.canvas:_choice"),
        moodle=MoodleWrites("moodle/question_multichoice.xml.j2", "writers.moodle:QuestionContext._single_choice",
                            qtype="multichoice"),
        preview=Shows("preview/kinds/single_choice.html.j2", "preview/kinds/single_choice.answer.html.j2", "preview:_choices"),
        markdown_reader="readers.markdown.questions:QuestionBuilder.choice",
        markdown_form=MarkdownForm("writers.markdown_source:_choices", needs_type="writers.markdown_source:_never"),
        answer_words="summary:_choices",
        canvas_checks="profiles:_nothing_lost",
        qti21_import=Qti21Import("importers.qti21.kinds:_single_choice", interactions=("choiceInteraction",)),
    ),
    KindSpec(
        MultipleResponseQuestion, "multiple response", "partial", names={"ko": "복수 선택", "ja": "複数選択", "zh": "多选"},
        markdown_attributes=("shuffle", "negative_marking", "scoring", "incomplete_points", "numbering"), markdown_answer="options",
        docs=Documented(
            qti21="`choiceInteraction` `maxChoices=\"0\"`; partial credit by a `mapping`",
            moodle="`multichoice`, multiple; fractions from the option scores",
            canvas="multiple answers, scored by Canvas's own partial-credit rule: option scores and negative marks "
                   "are not carried",
            moodle_after="as written, if every score is a Moodle grade option (else `QB321`); `fixed` is lost",
            new_quizzes="multiple answers: the right ones are the tested answers of the scoring condition's `<and>` "
                        "(`interactions/choice_interaction.rb`); partial credit is New Quizzes' own",
            yaml_fields="`choices` (at least 2, at least one correct), `shuffle` (`true`), `negative_marking` "
                        "(`false`), `scoring` (`partial`; or `all_or_nothing`, `exam`), `incomplete_points` (with "
                        "`scoring: exam`), `numbering`"),
        qti21=Qti21Writes("qti21/item_multiple_response.xml.j2", "writers.qti21:_multiple_response", "choiceInteraction"),
        canvas=Writes("canvas/item_choice.xml.j2", "writers.canvas:_choice"),
        moodle=MoodleWrites("moodle/question_multichoice.xml.j2", "writers.moodle:QuestionContext._multiple_response",
                            qtype="multichoice"),
        preview=Shows("preview/kinds/multiple_response.html.j2", "preview/kinds/multiple_response.answer.html.j2",
                      "preview:_choices"),
        markdown_reader="readers.markdown.questions:QuestionBuilder.choice",
        markdown_form=MarkdownForm("writers.markdown_source:_choices", needs_type="writers.markdown_source:_several_correct"),
        answer_words="summary:_choices",
        canvas_checks="profiles:_multiple_response",
        qti21_import=Qti21Import("importers.qti21.kinds:_multiple_response", interactions=("choiceInteraction",),
                                 tells="importers.qti21.kinds:_tells_multiple_response"),
    ),
    KindSpec(
        TrueFalseQuestion, "true/false", "all_or_nothing", names={"ko": "참/거짓", "ja": "正誤", "zh": "判断"},
        docs=Documented(
            qti21="`choiceInteraction` on `TF_RESPONSE`, choices `true`/`false` labelled in the quiz language (or "
                  "O/X)",
            moodle="`truefalse`, answers `true`/`false`; with O/X labels a single-choice `multichoice` of the marks",
            canvas="true/false in an English quiz; in other languages, and with O/X, multiple choice with the labels",
            moodle_after="labels in Moodle's own language (O/X: the marks); penalty 1",
            new_quizzes="true/false in an English quiz; in another language the same two-answer multiple choice as "
                        "in Classic, labelled in the quiz's language",
            yaml_fields="`answer` (`true`/`false`, required), `true_feedback`, `false_feedback` (Markdown: shown to "
                        "students who answered true / false), `labels` (the two choices, true first, when not the "
                        "quiz language's words: `[O, X]`)"),
        qti21=Qti21Writes("qti21/item_true_false.xml.j2", "writers.qti21:_true_false", "choiceInteraction"),
        canvas=Writes("canvas/item_choice.xml.j2", "writers.canvas:_true_false"),
        moodle=MoodleWrites("moodle/question_truefalse.xml.j2", "writers.moodle:QuestionContext._true_false",
                            qtype="truefalse", penalty="1"),
        preview=Shows("preview/kinds/true_false.html.j2", "preview/kinds/true_false.answer.html.j2", "preview:_true_false"),
        markdown_reader="readers.markdown.questions:QuestionBuilder.true_false",
        markdown_form=MarkdownForm("writers.markdown_source:_true_false", needs_type="writers.markdown_source:_never"),
        answer_words="summary:_true_false",
        canvas_checks="profiles:_true_false",
        qti21_import=Qti21Import("importers.qti21.kinds:_true_false", interactions=("choiceInteraction",),
                                 tells="importers.qti21.kinds:_tells_true_false"),
    ),
    KindSpec(
        ShortAnswerQuestion, "short answer", "partial", names={"ko": "단답형", "ja": "短答", "zh": "简答"},
        markdown_attributes=("case_sensitive",), markdown_answer="answers",
        docs=Documented(
            qti21="`textEntryInteraction` (string); literal answers and `*` wildcards",
            moodle="`shortanswer`",
            canvas="short answer with every full-credit answer and its comment; partial-credit answers and wildcards "
                   "are left out",
            moodle_after="answers written best first, so Moodle's first match is QTI's best match",
            new_quizzes="a fill-in-the-blank question with every accepted answer and each answer's feedback "
                        "(`interactions/fill_blank_interaction.rb`)",
            yaml_fields="`answers`: at least one `{text, score (100), feedback}`, one of them worth 100; "
                        "`case_sensitive` (`false`)"),
        qti21=Qti21Writes("qti21/item_short_answer.xml.j2", "writers.qti21:_short_answer", "textEntryInteraction"),
        canvas=Writes("canvas/item_short_answer.xml.j2", "writers.canvas:_short_answer"),
        moodle=MoodleWrites("moodle/question_shortanswer.xml.j2", "writers.moodle:QuestionContext._short_answer",
                            qtype="shortanswer"),
        preview=Shows("preview/kinds/short_answer.html.j2", "preview/kinds/short_answer.answer.html.j2", "preview:_short_answer"),
        markdown_reader="readers.markdown.questions:QuestionBuilder.short_answer",
        markdown_form=MarkdownForm("writers.markdown_source:_short_answer"),
        answer_words="summary:_short_answer",
        canvas_checks="profiles:_short_answer",
        qti21_import=Qti21Import("importers.qti21.kinds:_short_answer", interactions=("textEntryInteraction",)),
    ),
    KindSpec(
        NumericalQuestion, "numerical", "partial", names={"ko": "수치형", "ja": "数値", "zh": "数值"},
        markdown_attributes=("unit",), markdown_answer="answers",
        docs=Documented(
            qti21="`textEntryInteraction` (float); a range per answer",
            moodle="`numerical`, absolute tolerance, optional unit",
            canvas="numerical, each full-credit answer as an exact value with a margin, with its comment; "
                   "partial-credit answers are left out",
            moodle_after="answers written best first, so Moodle's first match is QTI's best match",
            new_quizzes="numerical: an exact answer (the value and two equal bounds, `numerics/exact_match.rb`) or a "
                        "value with its margin, absolute or percent, read exactly from the `margin` stated on the "
                        "value (`numerics/margin_error.rb`); an answer's own feedback is not read (the gem reads an "
                        "answer's comments only from a condition that tests that answer's `varequal` directly, and "
                        "Canvas's exporter writes numerical comments the same way as qti-builder)",
            new_quizzes_migrated="the margin may be worked out from the bounds in floating point "
                                 "(0.04999999999999982 for 0.05: [lms-behaviour.md](lms-behaviour.md)) where "
                                 "Canvas's export states none on the value",
            yaml_fields="`answers`: at least one `{value, tolerance (0), tolerance_mode (absolute/percent), score "
                        "(100), feedback}`, one of them worth 100; `unit`"),
        qti21=Qti21Writes("qti21/item_numerical.xml.j2", "writers.qti21:_numerical", "textEntryInteraction"),
        canvas=Writes("canvas/item_numerical.xml.j2", "writers.canvas:_numerical"),
        moodle=MoodleWrites("moodle/question_numerical.xml.j2", "writers.moodle:QuestionContext._numerical",
                            qtype="numerical"),
        preview=Shows("preview/kinds/numerical.html.j2", "preview/kinds/numerical.answer.html.j2", "preview:_numerical"),
        markdown_reader="readers.markdown.questions:QuestionBuilder.numerical",
        markdown_form=MarkdownForm("writers.markdown_source:_numerical"),
        answer_words="summary:_numerical",
        canvas_checks="profiles:_numerical",
        qti21_import=Qti21Import("importers.qti21.kinds:_numerical", interactions=("textEntryInteraction",),
                                 tells="importers.qti21.kinds:_tells_numerical"),
    ),
    KindSpec(
        EssayQuestion, "essay", "by_hand", names={"ko": "서술형", "ja": "記述式", "zh": "论述"},
        markdown_attributes=("response_format", "expected_lines", "min_words", "max_words", "attachments"),
        docs=Documented(
            qti21="`extendedTextInteraction` (+ one `uploadInteraction` per attachment); scored by a person",
            moodle="`essay`, model answer as grader information",
            canvas="essay, model answer as the example solution (and as the grading notes New Quizzes reads); "
                   "format, length, word limits and attachments are not carried",
            moodle_after="everything kept",
            new_quizzes="essay (found by the gem's fallback: `interactions/string_interaction.rb`), with the model "
                        "answer as its grading notes (`grading_notes`) and its general, correct and incorrect "
                        "feedback",
            new_quizzes_migrated="the model answer is lost: Classic keeps it as the example solution, which the "
                                 "exporter's `qti_items.rb` does not write",
            yaml_fields="`model_answer` (graders only), `response_format` (`editor`/`plain`/`monospaced`, default "
                        "`editor`), `expected_lines` (`15`, 1–200), `min_words`, `max_words` (at least `min_words`), "
                        "`attachments` (`0`, 0–20)"),
        qti21=Qti21Writes("qti21/item_essay.xml.j2", "writers.qti21:_essay", "extendedTextInteraction"),
        canvas=Writes("canvas/item_essay.xml.j2", "writers.canvas:_essay"),
        moodle=MoodleWrites("moodle/question_essay.xml.j2", "writers.moodle:QuestionContext._essay", qtype="essay"),
        preview=Shows("preview/kinds/essay.html.j2", "preview/kinds/essay.answer.html.j2", "preview:_open"),
        markdown_reader="readers.markdown.questions:QuestionBuilder.essay",
        markdown_form=MarkdownForm("writers.markdown_source:_model_answer", needs_type="writers.markdown_source:_essay_needs_type"),
        answer_words="summary:_model_answer",
        canvas_checks="profiles:_essay",
        qti21_import=Qti21Import("importers.qti21.kinds:_essay", interactions=("extendedTextInteraction",),
                                 together=(frozenset({"extendedTextInteraction", "uploadInteraction"}),)),
    ),
    KindSpec(
        FileUploadQuestion, "file upload", "by_hand", names={"ko": "파일 제출", "ja": "ファイル提出", "zh": "文件上传"},
        markdown_attributes=("max_files", "allowed_types"),
        preview_words={"en": {"upload": "Upload up to {n} files", "upload_one": "Upload 1 file"},
                       "ko": {"upload": "파일 최대 {n}개 업로드", "upload_one": "파일 1개 업로드"},
                       "ja": {"upload": "ファイルを {n} 件までアップロード", "upload_one": "ファイルを 1 件アップロード"},
                       "zh": {"upload": "最多上传 {n} 个文件", "upload_one": "上传 1 个文件"}},
        docs=Documented(
            qti21="one `uploadInteraction` per file; scored by a person",
            moodle="`essay` with no text box, attachments required",
            canvas="file upload, graders' notes as the example solution (and as grading notes); number of files and "
                   "file types are not carried",
            moodle_after="everything kept",
            new_quizzes="file upload (`interactions/upload_interaction.rb`) with its feedback; the gem reads no "
                        "notes for graders of an upload, so its `grading_notes` (written all the same) is not read",
            yaml_fields="`max_files` (`1`, 1–20), `allowed_types` (list of extensions such as `.pdf`; empty: any), "
                        "`model_answer` (graders only)"),
        qti21=Qti21Writes("qti21/item_file_upload.xml.j2", "writers.qti21:_file_upload", "uploadInteraction"),
        canvas=Writes("canvas/item_essay.xml.j2", "writers.canvas:_essay"),
        moodle=MoodleWrites("moodle/question_essay.xml.j2", "writers.moodle:QuestionContext._file_upload", qtype="essay"),
        preview=Shows("preview/kinds/file_upload.html.j2", "preview/kinds/file_upload.answer.html.j2", "preview:_open"),
        markdown_reader="readers.markdown.questions:QuestionBuilder.no_answer",
        markdown_form=MarkdownForm("writers.markdown_source:_model_answer"),
        answer_words="summary:_model_answer",
        canvas_checks="profiles:_file_upload",
        qti21_import=Qti21Import("importers.qti21.kinds:_file_upload", interactions=("uploadInteraction",),
                                 together=(frozenset({"uploadInteraction"}),)),
    ),
    KindSpec(
        MatchingQuestion, "matching", "partial", names={"ko": "연결형", "ja": "組み合わせ", "zh": "匹配"},
        markdown_attributes=("shuffle",), markdown_answer="list",
        preview_words={"en": {"pairs": "Correct pairs", "distractors": "Distractors"},
                       "ko": {"pairs": "올바른 짝", "distractors": "오답 보기"},
                       "ja": {"pairs": "正しい組み合わせ", "distractors": "誤答の選択肢"},
                       "zh": {"pairs": "正确配对", "distractors": "干扰项"}},
        docs=Documented(
            qti21="`matchInteraction`, `directedPair` mapping; partial credit per pair",
            moodle="`matching`; distractors as subquestions without text",
            canvas="matching, every pair and distractor; answers as plain text",
            moodle_after="answers shown as plain text in drop-downs",
            new_quizzes="matching with every pair and distractor (`interactions/match_interaction.rb`)",
            yaml_fields="`pairs`: list of `{prompt, answer}` (at least 2, Markdown), `distractors` (list of "
                        "Markdown), `shuffle` (`true`)"),
        qti21=Qti21Writes("qti21/item_matching.xml.j2", "writers.qti21:_matching", "matchInteraction"),
        canvas=Writes("canvas/item_matching.xml.j2", "writers.canvas:_matching"),
        moodle=MoodleWrites("moodle/question_matching.xml.j2", "writers.moodle:QuestionContext._matching", qtype="match"),
        preview=Shows("preview/kinds/matching.html.j2", "preview/kinds/matching.answer.html.j2", "preview:_matching"),
        markdown_reader="readers.markdown.questions:QuestionBuilder.matching",
        markdown_form=MarkdownForm("writers.markdown_source:_matching"),
        answer_words="summary:_pairs",
        canvas_checks="profiles:_matching",
        qti21_import=Qti21Import("importers.qti21.kinds:_matching", interactions=("matchInteraction",)),
    ),
    KindSpec(
        OrderingQuestion, "ordering", "all_or_nothing", markdown_answer="list", names={"ko": "순서 배열", "ja": "並べ替え", "zh": "排序"},
        losses={"canvas": ("Canvas Classic has no ordering type: it becomes one drop-down per position, each "
                           "listing every item, with credit per position instead of all or nothing",)},
        preview_words={"en": {"order": "Correct order"}, "ko": {"order": "올바른 순서"}, "ja": {"order": "正しい順序"},
                       "zh": {"order": "正确顺序"}},
        docs=Documented(
            qti21="`orderInteraction`; all or nothing",
            moodle="`ordering` (core since Moodle 4.4), graded all or nothing",
            canvas="multiple drop-downs, one per position, each listing every item; credit per position",
            moodle_after="as written: all or nothing",
            new_quizzes="multiple drop-downs, one per position, each listing every item "
                        "(`interactions/canvas_multiple_dropdown.rb`). New Quizzes has an ordering type of its own, "
                        "which the gem reads from a `response_lid rcardinality=\"Ordered\"`, but Classic turns that "
                        "form into a matching question without per-item feedback "
                        "([lms-behaviour.md](lms-behaviour.md)), so the package keeps the form both read",
            yaml_fields="`items`: list of Markdown in the correct order (at least 2)"),
        qti21=Qti21Writes("qti21/item_ordering.xml.j2", "writers.qti21:_ordering", "orderInteraction"),
        canvas=Writes("canvas/item_blanks.xml.j2", "writers.canvas:_ordering"),
        moodle=MoodleWrites("moodle/question_ordering.xml.j2", "writers.moodle:QuestionContext._ordering", qtype="ordering"),
        preview=Shows("preview/kinds/ordering.html.j2", "preview/kinds/ordering.answer.html.j2", "preview:_ordering"),
        markdown_reader="readers.markdown.questions:QuestionBuilder.ordering",
        markdown_form=MarkdownForm("writers.markdown_source:_ordering"),
        answer_words="summary:_items_in_order",
        canvas_checks="profiles:_ordering",
        qti21_import=Qti21Import("importers.qti21.kinds:_ordering", interactions=("orderInteraction",)),
    ),
    KindSpec(
        FillInBlankQuestion, "fill-in-the-blank", "partial", names={"ko": "빈칸 채우기", "ja": "穴埋め", "zh": "填空"},
        markdown_attributes=("case_sensitive",),
        preview_words={"en": {"blanks": "Blanks"}, "ko": {"blanks": "빈칸"}, "ja": {"blanks": "空欄"}, "zh": {"blanks": "空格"}},
        docs=Documented(
            qti21="`textEntryInteraction` / `inlineChoiceInteraction` per blank; each blank its own points, else "
                  "equal shares",
            moodle="`cloze`, one embedded answer per blank",
            canvas="fill in multiple blanks with every accepted answer; drop-downs only: multiple drop-downs; equal "
                   "shares (blanks' own unequal points: `QB601`)",
            moodle_after="marks from whole-number blank weights (`QB323`); correct/partial/incorrect feedback lost",
            new_quizzes="fill in multiple blanks with every accepted answer of each blank; drop-downs only: multiple "
                        "drop-downs (`interactions/fill_blank_interaction.rb`, "
                        "`interactions/canvas_multiple_dropdown.rb`)",
            yaml_fields="`blanks`: list of `{id, kind (text/dropdown), answers (at least 1), options, points}` "
                        "(`points`: what the blank is worth; all blanks or none, and then the question is worth "
                        "their sum), with one `[[blank-id]]` marker in the stem for each blank; `case_sensitive` "
                        "(`false`)"),
        qti21=Qti21Writes("qti21/item_fill_in_blank.xml.j2", "writers.qti21:_fill_in_blank", "textEntryInteraction"),
        canvas=Writes("canvas/item_blanks.xml.j2", "writers.canvas:_fill_in_blank"),
        moodle=MoodleWrites("moodle/question_cloze.xml.j2", "writers.moodle:QuestionContext._fill_in_blank",
                            qtype="multianswer"),
        preview=Shows("preview/kinds/fill_in_blank.html.j2", "preview/kinds/fill_in_blank.answer.html.j2", "preview:_blanks"),
        markdown_reader="readers.markdown.questions:QuestionBuilder.fill_in_blank",
        markdown_form=MarkdownForm("writers.markdown_source:_no_answer", stem="writers.markdown_source:_blanks_in_stem"),
        answer_words="summary:_blanks",
        canvas_checks="profiles:_fill_in_blank",
        qti21_import=Qti21Import("importers.qti21.kinds:_fill_in_blank",
                                 interactions=("textEntryInteraction", "inlineChoiceInteraction"),
                                 tells="importers.qti21.kinds:_tells_fill_in_blank",
                                 together=(frozenset({"textEntryInteraction"}), frozenset({"inlineChoiceInteraction"}),
                                           frozenset({"textEntryInteraction", "inlineChoiceInteraction"}))),
    ),
    KindSpec(
        CalculatedQuestion, "calculated", "all_or_nothing", names={"ko": "계산형", "ja": "計算", "zh": "计算"},
        markdown_attributes=("unit", "sets", "decimals", "figures"),
        docs=Documented(
            qti21="item template: `templateProcessing` draws one of the sets; `textEntryInteraction` (float), "
                  "correct between the set's bounds",
            moodle="`calculated` with one dataset per wildcard, holding the sets",
            canvas="calculated question with its formula, variables and sets",
            moodle_after="draws from the same sets",
            new_quizzes="a formula question: its formula, variables, tolerance (a `%` one relative) and every listed "
                        "set from the `<calculated>` extension (`interactions/formula_interaction.rb`)",
            yaml_fields="`variables`: list of `{name, min, max, step, decimals}`, `{name, values}` or `{name, "
                        "formula, decimals}` (and `shared`); `constraints` (list of conditions); `sets` (a number, "
                        "default 20, or a list of sets `{d: 45, t: 1.5}`, whose variables need no definition); "
                        "`answer` (formula), `tolerance` (`0`), `tolerance_mode` (`absolute`/`percent`), `decimals` "
                        "(`2`) or `figures`, `unit`; see [Calculated](#calculated)"),
        qti21=Qti21Writes("qti21/item_calculated.xml.j2", "writers.qti21_calculated:calculated_context", "textEntryInteraction"),
        canvas=Writes("canvas/item_calculated.xml.j2", "writers.canvas_calculated:calculated_context"),
        moodle=MoodleWrites("moodle/question_calculated.xml.j2", "writers.moodle_calculated:calculated", qtype="calculated"),
        preview=Shows("preview/kinds/calculated.html.j2", "preview/kinds/calculated.answer.html.j2", "preview:_calculated"),
        markdown_reader="readers.markdown.calculated:calculated",
        markdown_form=MarkdownForm("writers.markdown_source:_calculated", stem="writers.markdown_source:_variables_block"),
        answer_words="summary:_formula",
        canvas_checks="profiles:_calculated",
        qti21_import=Qti21Import("importers.qti21.kinds:_calculated"),
    ),
    KindSpec(
        CalculatedChoiceQuestion, "calculated choice", "all_or_nothing", names={"ko": "계산 선택형", "ja": "計算選択", "zh": "计算选择"},
        markdown_attributes=("shuffle", "sets", "decimals"), markdown_answer="options",
        losses={"canvas": ("Canvas has no calculated choice question: each set of values becomes a multiple-choice "
                           "question of its own, in a question group that draws one of them",)},
        docs=Documented(
            qti21="item template; `choiceInteraction` whose options show the drawn set's values",
            moodle="`calculatedmulti`, the options' formulas as Moodle's `{=…}`",
            canvas="a question group drawing one of N multiple-choice questions, one per set",
            moodle_after="draws from the same sets",
            new_quizzes="a question group drawing one of the multiple-choice variants, one per set, read as the "
                        "groups and multiple choice above",
            yaml_fields="the variables, `constraints` and `sets` of `calculated`, `choices` as `single_choice` "
                        "(exactly one correct) whose texts show `{=formula}` placeholders, `shuffle` (`true`), "
                        "`decimals` (`2`, for a `{=…}` without `:N`)"),
        qti21=Qti21Writes("qti21/item_calculated_choice.xml.j2", "writers.qti21_calculated:calculated_context",
                          "choiceInteraction"),
        canvas=Writes("canvas/item_calculated_choice.xml.j2", "writers.canvas_calculated:calculated_choice_context"),
        moodle=MoodleWrites("moodle/question_calculatedmulti.xml.j2", "writers.moodle_calculated:calculated_choice",
                            qtype="calculatedmulti"),
        preview=Shows("preview/kinds/single_choice.html.j2", "preview/kinds/calculated_choice.answer.html.j2",
                      "preview:_calculated"),
        markdown_reader="readers.markdown.calculated:calculated_choice",
        markdown_form=MarkdownForm("writers.markdown_source:_choices", stem="writers.markdown_source:_variables_block"),
        answer_words="summary:_choices",
        canvas_checks="profiles:_calculated_choice",
        qti21_import=Qti21Import("importers.qti21.kinds:_calculated_choice"),
    ),
    KindSpec(
        TextOnlyItem, "text-only item", "none", names={"ko": "안내문", "ja": "説明文", "zh": "说明文字"},
        docs=Documented(
            qti21="an item with text only (weight 0)",
            moodle="`description`",
            canvas="text only, 0 points",
            moodle_after="as written",
            new_quizzes="a **stimulus**, a block of text that is not a question (`assessment.rb` makes every "
                        "`text_only_question` one, `stimulus_item.rb`); a section introduction too",
            yaml_fields="no fields of its own: text shown between questions, worth no points"),
        qti21=Qti21Writes("qti21/item_text_only.xml.j2", "writers.qti21:_text_only", None),
        canvas=Writes("canvas/item_text_only.xml.j2", "writers.canvas:_text_only"),
        moodle=MoodleWrites("moodle/question_description.xml.j2", "writers.moodle:QuestionContext._text_only",
                            qtype="description", penalty="0"),
        preview=Shows("preview/kinds/text_only.html.j2", None, "preview:_nothing"),
        markdown_reader="readers.markdown.questions:QuestionBuilder.no_answer",
        markdown_form=MarkdownForm("writers.markdown_source:_no_answer"),
        answer_words="summary:_nothing",
        canvas_checks="profiles:_nothing_lost",
        qti21_import=Qti21Import("importers.qti21.kinds:_text_only", together=(frozenset(),)),
    ),
)}


# -- the stages' tables, derived from the specs ------------------------------------------------------

#: The fields of :class:`KindSpec` that are a stage's part: each is one stage's table.
PARTS = ("qti21", "canvas", "moodle", "preview", "markdown_reader", "markdown_form", "answer_words", "canvas_checks",
         "qti21_import")


# -- the docs' tables, made from the specs -----------------------------------------------------------


def _row(*cells: str) -> str:
    return "| " + " | ".join(cells) + " |"


def _names(kinds: list[str]) -> str:
    return ", ".join(f"`{name}`" for name in kinds)


def _documented(spec: KindSpec) -> Documented:
    if spec.docs is None:
        raise LookupError(f"kind '{spec.name}': KindSpec.docs (the docs' tables) is missing")
    return spec.docs


def docs_tables() -> dict[tuple[str, str], str]:
    """Every table of the kinds in the docs, by (page, table name): the Markdown between the
    page's ``<!-- kinds: NAME -->`` and ``<!-- kinds: end -->`` markers."""
    overview = [_row("Type", "QTI 2.1 item", "Moodle XML", "Canvas package, in Canvas Classic Quizzes", "Moodle after import"),
                _row(*["---"] * 5).replace(" ", "")]
    new_quizzes = [_row("Type", "Read by New Quizzes' parser from the package", "Through a migrated Classic quiz, in addition"),
                   _row(*["---"] * 3).replace(" ", "")]
    yaml = [_row("`type`", "Fields (default)"), _row("---", "---").replace(" ", "")]
    for name, spec in KINDS.items():
        docs = _documented(spec)
        overview.append(_row(f"`{name}`", docs.qti21, docs.moodle, docs.canvas, docs.moodle_after))
        new_quizzes.append(_row(f"`{name}`", docs.new_quizzes, docs.new_quizzes_migrated))
        yaml.append(_row(f"`{name}`", docs.yaml_fields))
    # Outcome feedback and attributes follow from what the specs already say: kinds alike share a row.
    by_feedback: dict[tuple[str, ...], list[str]] = {}
    for name, spec in KINDS.items():
        if spec.answered:
            by_feedback.setdefault(spec.outcome_feedback, []).append(name)
    feedback = [_row("Types", "Correct", "Partially correct", "Incorrect"), _row(*["---"] * 4).replace(" ", "")]
    for shown, kinds in by_feedback.items():
        partly = "yes" if "partially_correct" in shown else "no (right or wrong only)" if shown else "no"
        feedback.append(_row(_names(kinds), "yes" if "correct" in shown else "no", partly,
                             "yes" if "incorrect" in shown else "no"))
    attributes = [_row("Type", "Attributes"), _row("---", "---").replace(" ", "")]
    attributes += [_row(f"`{name}`", _names(list(spec.markdown_attributes)))
                   for name, spec in KINDS.items() if spec.markdown_attributes]
    attributes.append(_row(_names([name for name, spec in KINDS.items() if not spec.markdown_attributes]), "none"))
    return {("question-types.md", "overview"): "\n".join(overview),
            ("question-types.md", "outcome feedback"): "\n".join(feedback),
            ("question-types.md", "new quizzes"): "\n".join(new_quizzes),
            ("source-format.md", "attributes"): "\n".join(attributes),
            ("source-format.md", "yaml fields"): "\n".join(yaml)}


def resolve(dotted: Dotted) -> Any:
    """The function a dotted path names: ``"writers.canvas:_choice"`` is ``_choice`` of
    ``qti_builder.writers.canvas``, imported when first asked for (this module sits below the
    stages, which import it)."""
    module, _, attributes = dotted.partition(":")
    found: Any = importlib.import_module(f"{__package__}.{module}")
    for name in attributes.split("."):
        found = getattr(found, name)
    return found


Entry = TypeVar("Entry")


class MissingPart(KeyError):
    """A stage asked its table for a kind whose spec lacks the stage's part: the message names the
    kind, the part and the table (a plain KeyError would name the kind only)."""

    def __str__(self) -> str:
        return str(self.args[0])


#: Every stage's table, as the stages make them (tests/test_kinds.py walks them all).
TABLES: list[KindTable[Any]] = []


class KindTable(Mapping[str, Entry], Generic[Entry]):
    """One stage's registry: each kind's entry, made by ``make`` from the kind's ``part`` of its
    spec (a :data:`PARTS` field), for every kind that has the part. A kind's entry is made (and the
    functions it names imported) when the kind is first asked for, once every stage is loaded: a
    quiz without calculated questions imports none of the calculated kinds' reader and writers."""

    def __init__(self, part: str, where: str, make: Callable[[Any], Entry]) -> None:
        assert part in PARTS, part
        self.part = part
        #: The table's stage, for messages: ``writers/canvas.py CanvasWriter.adapters``.
        self.where = where
        self._make = make
        self._entries: dict[str, Entry] = {}
        TABLES.append(self)

    def __getitem__(self, kind: str) -> Entry:
        if kind in self._entries:
            return self._entries[kind]
        part = getattr(KINDS[kind], self.part)
        if part is None:
            raise MissingPart(f"kind '{kind}' has no KindSpec.{self.part}, which {self.where} needs: add it to the "
                              "kind's spec in kinds.py (README, \"Adding a question kind\")")
        try:
            entry = self._entries[kind] = self._make(part)
        except (ImportError, AttributeError, KeyError) as error:
            raise LookupError(f"kind '{kind}': KindSpec.{self.part} ({self.where}) names what does not "
                              f"exist: {error}") from error
        return entry

    def __iter__(self) -> Iterator[str]:
        return iter([name for name, spec in KINDS.items() if getattr(spec, self.part) is not None])

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        return f"KindTable({self.part!r}, {self.where!r})"

    # A table is itself, not its entries: comparing two must not make them.
    __eq__ = object.__eq__
    __hash__ = object.__hash__
