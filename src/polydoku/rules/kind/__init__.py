"""Rule kinds that each have a module of their own: the module holds the kind's class (its
statement, lowering, drawing, logic, and its names in f-puzzles, SudokuPad's rules text and
ISS as class attributes; see `model.rules.Rule`) and lists it in `KINDS`. `registry.kinds()`
finds every module here; adding a kind is adding a module, its tests and its docs.
"""
