"""MiniZinc: the problem as a MiniZinc model (`encode`), run by the `minizinc` program (`run`)."""
