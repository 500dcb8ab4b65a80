"""Types of the compiled search (src/polydoku/_core.c)."""

from typing import Sequence

class Core:
    def __init__(self, dsizes: Sequence[int], ncells: int, peers: Sequence[Sequence[int]],
                 units: Sequence[Sequence[int]],
                 conflicts: Sequence[tuple[int, int, int, int]],
                 tables: Sequence[tuple[Sequence[int], Sequence[Sequence[int]]]],
                 sums: Sequence[tuple[Sequence[int], Sequence[Sequence[int]], bytes, int]
                                | tuple[Sequence[int], Sequence[Sequence[int]], bytes, int, int,
                                        Sequence[tuple[int, int, Sequence[int]]] | None]],
                 crossings: Sequence[tuple[Sequence[int], Sequence[int], Sequence[int]]]
                 ) -> None: ...
    def search(self, givens: Sequence[tuple[int, int]], limit: int = 1, keep: int = ...,
               deadline: float = 0.0
               ) -> tuple[list[tuple[int, ...]], int, int, int, bool]: ...
    def propagate(self, cands: Sequence[int], queue: Sequence[int], search: bool = False
                  ) -> list[int] | None: ...
    def fixpoint(self, givens: Sequence[tuple[int, int]], locked: bool = False
                 ) -> list[int] | None: ...
    def solve_lines(self, data: bytes, alphabet: bytes, box_rows: int, box_cols: int,
                    timeout: float) -> tuple[bytes, int, int, int]: ...

def check_classic(given: Sequence[int], solution: Sequence[int], box_rows: int,
                  box_cols: int) -> bool: ...

def chain_search(nodes: int, strong_ptr: bytes, strong_adj: bytes, weak_ptr: bytes,
                 weak_adj: bytes, conf_row: bytes, conf: bytes, live: bytes, starts: bytes,
                 words: int, singles: int, limit: int, mode: int, n: int
                 ) -> tuple[int, int, int, list[tuple[int, bool]], bytes, bool] | None: ...

def als_xz(packed: bytes, count: int, size: int, words: int, planes: bytes
           ) -> tuple[int, int, int] | None: ...

def weak_links(nodes: int, conf_row: bytes, conf: bytes, words: int, singles: int,
               filter: bytes, live: bytes, n: int, same_value: bool, groups: bytes,
               mixed_from: int) -> tuple[bytes, bytes]: ...

def finned_fish(plane: bytes, size: int, box_of: bytes, n: int, width: int
                ) -> tuple[int, tuple[int, ...], int] | None: ...

def naked_subset(cand: bytes, peers: bytes, words: int, groups: bytes, ptr: bytes, k: int,
                 need: bytes) -> tuple[int, tuple[int, ...]] | None: ...

def hidden_subset(cand: bytes, groups: bytes, ptr: bytes, k: int) -> int | None: ...

def planes(cand: bytes, size: int, words: int) -> bytes: ...
