"""What the writers share: the documents they produce and rendering a template safely."""

from __future__ import annotations

import re
import traceback
from dataclasses import dataclass, field
from typing import ClassVar

import jinja2

from ..diagnostics import DiagnosticSink, SourceSpan
from ..media import MediaSet
from ..model import Quiz
from ..model.questions import QuestionBase

#: Writers mark where each question starts in a multi-question document with this comment (the
#: same comment Moodle's own export writes), numbered from 1, so a schema error can be traced to
#: its question. A number, not the id: an id may contain "--", which a comment may not.
QUESTION_MARKER = re.compile(rb"<!-- question: ([0-9]+) -->")


@dataclass(frozen=True)
class Document:
    """One generated XML document, validated before anything is written."""

    #: Path inside the package, or the output file's name for single-file targets.
    path: str
    data: bytes
    #: Which schema validates it: "qti", "manifest" or "moodle"; "" for media files.
    schema: str
    #: The question this document holds, when it holds exactly one.
    question_id: str | None = None
    #: For a document of several questions: their ids, in the order of their markers.
    question_order: tuple[str, ...] = ()

    def question_at(self, line: int) -> str | None:
        """The question whose text contains ``line`` (1-based)."""
        if self.question_id:
            return self.question_id
        found = None
        for number, text in enumerate(self.data.splitlines(), 1):
            if number > line:
                break
            match = QUESTION_MARKER.search(text)
            if match and 0 < int(match.group(1)) <= len(self.question_order):
                found = self.question_order[int(match.group(1)) - 1]
        return found


@dataclass
class Output:
    """Everything one writer produces for one quiz."""

    #: File name in the output folder, e.g. ``ray-train-tune.qti21.zip``.
    filename: str
    documents: list[Document] = field(default_factory=list)
    #: True: the documents are zipped into ``filename``; False: the single document is the file.
    archive: bool = False


class Writer:
    """A target format. Subclasses set the class attributes and implement :meth:`write`."""

    #: Selector used by ``--format`` and the template folder name.
    name: ClassVar[str]
    #: Suffix of the output file, after the quiz id.
    suffix: ClassVar[str]
    #: Question kind -> template name. A kind missing here cannot be written by this target yet,
    #: which is reported per question rather than dropped.
    templates: ClassVar[dict[type[QuestionBase], str]]

    def __init__(self, env: jinja2.Environment) -> None:
        self.env = env

    def write(
        self, quiz: Quiz, spans: dict[str, SourceSpan], sink: DiagnosticSink, media: MediaSet = MediaSet()
    ) -> Output | None:
        raise NotImplementedError

    def check_supported(self, quiz: Quiz, spans: dict[str, SourceSpan], sink: DiagnosticSink) -> bool:
        ok = True
        for question in quiz.iter_questions():
            if type(question) not in self.templates:
                sink.error(
                    "QB301",
                    f"the {self.name} writer cannot write {question.type} questions yet (question '{question.id}')",
                    spans.get(question.id),
                    hint=f"leave this target out with --format, or change the question's type",
                )
                ok = False
        return ok

    def render(self, template: str, sink: DiagnosticSink, span: SourceSpan | None = None, **context: object) -> bytes | None:
        return render_template(self.env, template, sink, span, **context)


def render_template(
    env: jinja2.Environment, template: str, sink: DiagnosticSink, span: SourceSpan | None = None, **context: object
) -> bytes | None:
    """Render one template to UTF-8 bytes; a template error becomes a diagnostic at its line."""
    try:
        return env.get_template(template).render(**context).encode("utf-8")
    except jinja2.TemplateSyntaxError as exc:
        where = SourceSpan(exc.filename or exc.name or template, exc.lineno or 1)
        sink.error("QB302", f"template syntax error: {exc.message}", where, hint="fix the template (see --templates)")
    except jinja2.TemplateNotFound as exc:
        sink.error("QB303", f"template '{exc.name}' not found", span, hint="check the --templates folder")
    except (jinja2.TemplateError, TypeError, ValueError, AttributeError, KeyError) as exc:
        frame = _template_frame(exc)
        sink.error("QB304", f"template error: {exc}", frame or span, hint="fix the template (see --templates)")
    return None


def _template_frame(exc: BaseException) -> SourceSpan | None:
    """Jinja rewrites tracebacks so template frames carry the template's file and line."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename.endswith(".j2")]
    if not frames:
        return None
    return SourceSpan(frames[-1].filename, frames[-1].lineno or 1)
