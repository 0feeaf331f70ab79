"""The :data:`Question` union: every kind's class, told apart by ``type``, found in the kinds' modules.

Its own module, above the kinds' modules (:mod:`.questions`, :mod:`.parametric`, whose calculated
kinds build on the classes of :mod:`.questions`, and one module per kind in :mod:`.kinds`), so that
none of those imports another back. The union is not written out: it is every class of those
modules that declares its own ``type``, the modules in that order (those of :mod:`.kinds` by name),
each module's classes in the order they are written. A new kind adds its module to :mod:`.kinds`
and its spec to ``qti_builder.kinds.KINDS``, in the union's order (tests/test_kinds.py says where).

Static typing: a union made at run time is one a type checker cannot see, so to mypy
:data:`Question` is :class:`~.questions.QuestionBase`, whose ``type`` is a ``str``. Code that needs
one kind's fields narrows with ``isinstance`` (``q.type == "..."`` does not narrow), and every
stage's function takes its own kind's class, as the kinds' tables (qti_builder/kinds.py) call them.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType
from typing import TYPE_CHECKING, Annotated, Union

from pydantic import Field

from . import kinds, parametric, questions
from .questions import QuestionBase


def _own_kinds(module: ModuleType) -> list[type[QuestionBase]]:
    """The kinds' classes ``module`` defines: those that declare their own ``type``."""
    return [value for value in vars(module).values()
            if isinstance(value, type) and issubclass(value, QuestionBase) and value.__module__ == module.__name__
            and "type" in vars(value).get("__annotations__", {})]


def _kind_modules() -> list[ModuleType]:
    found = sorted(info.name for info in pkgutil.iter_modules(kinds.__path__))
    return [questions, parametric, *(importlib.import_module(f"{kinds.__name__}.{name}") for name in found)]


#: The union's classes, in its order.
QUESTION_CLASSES: tuple[type[QuestionBase], ...] = tuple(cls for module in _kind_modules() for cls in _own_kinds(module))

if TYPE_CHECKING:
    Question = QuestionBase
else:
    Question = Annotated[Union[QUESTION_CLASSES], Field(discriminator="type")]
