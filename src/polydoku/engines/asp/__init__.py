"""ASP: the problem as an answer-set program (`encode`), solved in process by clingo (`engine`)."""
