"""ISS's compact form of an automaton (`.NFA~<form>~cells`), read into an automaton
(rules/automaton.py) and written from one.

The form is URL-safe base64 (no padding) of a bit stream, most significant bit first: a header
(2 bits of format, 4 of state bits - 1, 4 of symbols - 1, then the count of start states and
of accepting states that are not starts, each in state bits, one bit per start saying it
accepts, and in the plain format 4 bits of the width of a state's move count); then each state
in turn until the stream ends: plain, its count of moves and each (symbol - 1, target); packed,
a mask of its symbols (lowest bit the first symbol) and one target each. States are numbered
starts first, then the other accepting states, then the rest. Symbol k is the grid's k-th
value; symbol V+1 (segment breaks) is not read here.
"""

from __future__ import annotations

import base64
import binascii

from ..errors import BadInput
from .automaton import MAX_STATES, Automaton

MAX_FORM = 20_000          # characters of a form


def _bytes(form: str) -> bytes:
    if len(form) > MAX_FORM:
        raise BadInput(f"an automaton's ISS form of {len(form)} characters (at most {MAX_FORM})")
    if not form.replace("-", "").replace("_", "").isalnum() or not form.isascii():
        raise BadInput("an automaton's ISS form is URL-safe base64 (A-Z a-z 0-9 - _)")
    try:
        return base64.urlsafe_b64decode(form + "=" * (-len(form) % 4))
    except (binascii.Error, ValueError):
        raise BadInput("an automaton's ISS form is not base64") from None


class _Bits:
    """A stream of bits read most significant first."""

    def __init__(self, data: bytes) -> None:
        self.data, self.pos, self.total = data, 0, len(data) * 8

    def left(self) -> int:
        return self.total - self.pos

    def read(self, n: int) -> int:
        if self.pos + n > self.total:
            raise BadInput("an automaton's ISS form ends inside its data")
        out = 0
        for _ in range(n):
            out = out << 1 | self.data[self.pos >> 3] >> (7 - (self.pos & 7)) & 1
            self.pos += 1
        return out


def read_form(form: str) -> tuple[Automaton, int]:
    """Return the automaton of an ISS form and its number of symbols (BadInput naming what
    is wrong)."""
    bits = _Bits(_bytes(form))
    fmt = bits.read(2)
    if fmt > 1:
        raise BadInput(f"an automaton's ISS form of unknown format {fmt}")
    state_bits, symbols = bits.read(4) + 1, bits.read(4) + 1
    starts, accepts = bits.read(state_bits), bits.read(state_bits)
    start_accepts = bits.read(starts)
    count_bits = bits.read(4) if fmt == 0 else 0
    symbol_bits = (symbols - 1).bit_length()
    aut = Automaton()
    moves: list[tuple[int, int, int]] = []
    state = 0
    while (fmt == 0 and count_bits and bits.left() >= count_bits) or \
            (fmt == 1 and bits.left() >= symbols):
        if fmt == 0:
            for _ in range(bits.read(count_bits)):
                moves.append((state, bits.read(symbol_bits) + 1, bits.read(state_bits)))
        else:
            mask = bits.read(symbols)
            for k in range(symbols):
                if mask >> k & 1:
                    moves.append((state, k + 1, bits.read(state_bits)))
        state += 1
    if bits.read(bits.left()) != 0:
        raise BadInput("an automaton's ISS form has data after its states")
    top = max([state, starts + accepts, *(t + 1 for _, _, t in moves)])
    if top > MAX_STATES or starts < 1:
        raise BadInput(f"an automaton of {top} states, {starts} starts (1..{MAX_STATES} states)")
    for _ in range(top):
        aut.add_state()
    for a, k, b in moves:
        aut.add_move(a, b, k)
    aut.starts.update(range(starts))
    aut.accepts.update(i for i in range(starts) if start_accepts >> i & 1)
    aut.accepts.update(range(starts, starts + accepts))
    return aut, symbols


def write_form(moves: list[dict[int, set[int]]], starts: list[int], accepts: set[int],
               symbols: int) -> str:
    """Return the ISS form (plain format) of an automaton whose states are numbered as the
    form numbers them: `starts` the first ones, the other accepting states next."""
    n = len(moves)
    # wide enough for every state and for the counts of starts and accepting states
    state_bits = max(1, (n - 1).bit_length(), len(starts).bit_length(), len(accepts).bit_length())
    count = max((sum(len(t) for t in m.values()) for m in moves), default=0)
    count_bits = count.bit_length()
    out: list[tuple[int, int]] = [(0, 2), (state_bits - 1, 4), (symbols - 1, 4),
                                  (len(starts), state_bits),
                                  (len(accepts - set(starts)), state_bits),
                                  (sum(1 << i for i in starts if i in accepts), len(starts)),
                                  (count_bits, 4)]
    symbol_bits = (symbols - 1).bit_length()
    for m in moves:
        out.append((sum(len(t) for t in m.values()), count_bits))
        for k in sorted(m):
            out += [p for t in sorted(m[k]) for p in ((k - 1, symbol_bits), (t, state_bits))]
    value = width = 0
    for v, w in out:
        value, width = value << w | v, width + w
    value <<= -width % 8
    data = value.to_bytes((width + 7) // 8, "big") if width else b""
    return base64.urlsafe_b64encode(data).decode().rstrip("=")
