"""Reasoning over puzzles, built on the engines: explanations (`explain`), true candidates
(`candidates`) and human-style techniques (`logic`). Modules are imported by name; this package
imports nothing itself, so each part loads only what it uses.
"""
