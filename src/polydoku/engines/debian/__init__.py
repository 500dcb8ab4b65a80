"""The Debian family of engines: a puzzle becomes a Packages file that apt, aptitude, aspcud
(EDSP), libsolv and dose-distcheck solve for real, in simulation, in a private apt tree.

`encode.py` (pure: problem -> Packages text), `layout.py` (pure: the private apt tree and the
command lines), `run.py` (the only home of subprocesses, temp dirs and timeouts), `decode.py`
(pure: tool output -> packages or words), `engines.py` (the engine classes), `export.py`
(`polydoku export --to debian`), `solv_child.py` (the libsolv child process, standalone).
"""
