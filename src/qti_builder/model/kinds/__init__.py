"""The model classes of the kinds that have a module of their own, one module per kind.

A module here holds one kind's class (``type: Literal["my_kind"] = "my_kind"``, its fields and
rules) and nothing else: :mod:`..union` finds it, so a new kind adds its module and touches no
list. The first kinds' classes are in :mod:`..questions` and :mod:`..parametric`.
"""
