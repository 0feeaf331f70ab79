"""What the commands share in reading their options: cli.py's commands and the import command
(importers/command.py) both take these, and neither imports the other for them."""

from __future__ import annotations

import typer


def ignore_codes(values: list[str] | None) -> frozenset[str]:
    """``--ignore`` as codes; a usage error for an unknown code or an error's."""
    if not values:  # no --ignore: the module that checks codes imports the quiz's model
        return frozenset()
    from .ignores import parse_codes

    try:
        return parse_codes(values or [])
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--ignore") from None
