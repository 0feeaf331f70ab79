"""The build the command line runs: each quiz from the build cache (:mod:`.cache`) where it is
there, the pipeline for the rest. Its own module, above both, so that the pipeline can keep what
it builds in the cache without the cache importing the pipeline back."""

from __future__ import annotations

import time

from .cache import collector_paused, look_up
from .diagnostics import Diagnostic, Severity, display_path
from .results import BuildOptions, BuildResult, QuizResult, conclude, find_sources


def build(options: BuildOptions, models: bool = True) -> BuildResult:
    """The build (``pipeline.build``), but when every quiz is found in the cache, its result
    without importing the pipeline (the readers, the writers, the schemas): ``check`` of unchanged
    sources at every save, and a build that has nothing to do, cost the start of a process.
    ``models=False``: the caller reads no quiz's model (only ``QuizResult.facts``), which a quiz
    taken from the cache then leaves pickled (nor is pydantic imported to make it)."""
    started = time.perf_counter()
    results = [QuizResult(path) for path in find_sources(options.sources)]
    lookup = look_up([r.source for r in results], options)
    if models:
        lookup.thaw()
    ids = [entry.quiz_id for entry in lookup.hits.values()]
    if not results or len(lookup.hits) < len(results) or len(set(ids)) < len(ids) \
            or _categories_shared([entry.result for entry in lookup.hits.values()]):
        # QB202 for a shared id, QB237 for a shared category ID number, with their spans, are the pipeline's
        _import_pipeline_while_schemas_compile(options)
        from .pipeline import build as build_anew

        return build_anew(options, lookup)
    results = [lookup.hits[i].result for i in range(len(results))]
    # The stages of every build's report (docs/ci.md), those not run here at 0.
    clock = {"read": time.perf_counter() - started, "schemas": 0.0, "work": 0.0, "write": 0.0}
    errors: list[Diagnostic] = []
    if options.write:
        from .staging import Staging, WriteError

        mark = time.perf_counter()
        with Staging() as staging:
            try:
                for i, result in enumerate(results):
                    for output in result.outputs:
                        staging.write(output.path, [lookup.hits[i].contents[output.format]])
                staging.commit()
                for result in results:
                    result.written = bool(result.outputs)
            except WriteError as exc:
                errors.append(Diagnostic(
                    Severity.ERROR, "QB501", f"cannot write {display_path(exc.path)}: {exc.error.strerror or exc.error}",
                    hint="check that the output folder is writable and the disk has space; nothing was changed"))
        clock["write"] = time.perf_counter() - mark
    clock["total"] = time.perf_counter() - started
    return conclude(results, errors, clock, 1)


def _import_pipeline_while_schemas_compile(options: BuildOptions) -> None:
    """Import the pipeline on a thread while this one compiles the build's schemas: libxml2
    compiles without Python's lock, importing is Python's work, and on two CPUs the compile (a
    tenth of a small quiz's ``check``) is then all but free. This way round because lxml's objects
    are best made on the thread that uses them (the pipeline validates here, or in workers forked
    after the thread has ended). The compiled set is ``load_schemas``' own, which the pipeline
    then takes as it is; a compile that fails is left for the pipeline to do again, and to report
    where it asks for the schemas. Nothing ahead when they would first be downloaded.

    The collector is off meanwhile: the import makes some 45,000 objects (classes, functions, the
    model's validators) that nearly all live as long as the process; its 81 collections on the
    way walked them again and again to free about 1,700. Then they are frozen (``gc.freeze``, as
    the pipeline freezes what it read), or the first collection after would walk them all at once;
    the pipeline's ``build`` unfreezes everything when it ends, for a watching or serving process."""
    with collector_paused(freeze=True):
        import importlib
        import threading

        from .schemas import load_schemas, needs_download, resolve_schema_dir  # lxml's import too

        # A daemon: an import that fails ends the thread, and the import below raises it again here
        importing = threading.Thread(target=importlib.import_module, args=(".pipeline", __package__),
                                     name="import-pipeline", daemon=True)
        importing.start()
        try:
            if not needs_download(options.schemas):
                load_schemas(resolve_schema_dir(options.schemas), frozenset(options.formats))
        except Exception:  # noqa: S110 -- the pipeline compiles them again, and reports what is wrong where it should
            pass
        finally:
            importing.join()


def _categories_shared(results: list[QuizResult]) -> bool:
    """Whether two of the quizzes give Moodle categories one ID number (each quiz built alone,
    before, had no error of it)."""
    seen: dict[str, int] = {}
    for i, result in enumerate(results):
        facts = result.facts()
        if facts is None:
            continue
        for ident in facts.categories:
            if seen.setdefault(ident, i) != i:
                return True
    return False
