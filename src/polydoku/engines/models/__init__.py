"""Model exports: the problem as text a person can read and run (DIMACS, SMT-LIB, MiniZinc,
ASP, Alloy, Picat), and the engines that run Alloy and Picat when they are installed."""
