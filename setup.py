"""The native engine's compiled search (C, built with the host's compiler at install); the
rest of the build is in pyproject.toml. The extension is optional: where it cannot be built,
its pure-Python twin (src/polydoku/core, engines/native.py) runs instead."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("polydoku._core", ["src/polydoku/_core.c"],
                             extra_compile_args=["-O3"], optional=True)])
