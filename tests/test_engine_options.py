"""Engine options (`-o NAME=VALUE`): every engine declares the options it takes, and a value
an option does not take is bad input naming the engine and the option, before anything runs."""

from __future__ import annotations

import pytest

from polydoku.engines.base import Option
from polydoku.engines.registry import ENGINE_IDS, engine_class, make_engine
from polydoku.errors import BadInput

WIKI = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def _bad_value(option: Option) -> str:
    """Return a value the option does not take."""
    if option.takes == "number":
        return "many"
    if option.takes == "flag":
        return "perhaps"
    if option.takes == "text":
        return "two\nlines"
    return "no-such-value"


def _options():
    for engine_id in ENGINE_IDS:
        for name, option in engine_class(engine_id).OPTIONS.items():
            yield engine_id, name, option


@pytest.mark.parametrize("engine_id,name,option", list(_options()),
                         ids=[f"{e}-{n}" for e, n, _ in _options()])
def test_a_value_an_option_does_not_take_is_refused_by_name(engine_id, name, option):
    with pytest.raises(BadInput, match=f"engine '{engine_id}': option {name}"):
        make_engine(engine_id, options={name: _bad_value(option)})


@pytest.mark.parametrize("engine_id", ENGINE_IDS)
def test_every_default_is_a_value_its_option_takes(engine_id):
    cls = engine_class(engine_id)
    for variant in cls.variants:
        engine = make_engine(engine_id if variant == cls.variants[0] else f"{engine_id}+{variant}")
        for name, option in cls.OPTIONS.items():
            default = engine.option(name)
            if default:
                option.check(engine_id, name, default)     # raises when it is not


def test_numbers_have_their_floor():
    with pytest.raises(BadInput, match="whole number from 1"):
        make_engine("cpsat", options={"workers": "0"})
    assert make_engine("cpsat", options={"workers": "2"}).number_option("workers") == 2
    assert make_engine("cpsat").flag_option("presolve") is True
    assert make_engine("cpsat", options={"presolve": "off"}).flag_option("presolve") is False


def test_a_variant_sets_an_option_default():
    assert make_engine("uv").option("resolution") == "highest"
    assert make_engine("uv+tuned").option("resolution") == "lowest"
    assert make_engine("uv+tuned", options={"resolution": "highest"}).option("resolution") \
        == "highest"


def test_the_cli_says_it_in_one_line(run_cli):
    r = run_cli("solve", WIKI, "--engine", "cpsat", "-o", "workers=lots")
    assert r.code == 2
    assert r.err.strip() == ("polydoku: engine 'cpsat': option workers must be a whole number "
                             "from 1, not 'lots'")
    r = run_cli("solve", WIKI, "--engine", "apt", "-o", "reduction=sideways")
    assert r.code == 2 and "option reduction='sideways' is not one of conflicts, depends" in r.err
    assert "Traceback" not in r.err
