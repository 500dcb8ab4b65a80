"""The in-process resolvelib run: a provider over the virtual index (no files, no network).

Two orderings of what to pin next (`STRATEGIES`):
- `pip`: pip's own choice (its provider's `narrow_requirement_selection` and `get_preference`):
  backtrack causes first, then pinned (`==`) requirements, then the order the user asked for,
  then constrained before free, then by name;
- `fewest`: the project with the fewest candidates left, then the order asked for.
Candidates are tried newest first, as pip does (`order=lowest` tries the lowest first).

Requirement specifiers are read with `packaging`, once per distinct requirement, into the set of
releases they allow; the resolver itself is resolvelib's. This module runs no subprocess.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from .encode import Index, Requirement as ReqPair, value_of

STRATEGIES = ("pip", "fewest")
ORDERS = ("highest", "lowest")
DEFAULT_MAX_ROUNDS = 10_000_000


class DeadlineReached(Exception):
    """Raised from the reporter when the run's time is up."""


@dataclass(frozen=True)
class Candidate:
    """One release of a project."""

    name: str
    version: str


@dataclass(frozen=True)
class Requirement:
    """A requirement on a project, with the releases its specifier allows."""

    name: str
    spec: str
    allowed: frozenset[str]

    def __str__(self) -> str:
        return self.name + self.spec


@dataclass
class RunStats:
    """What the resolver did, counted by the reporter."""

    rounds: int = 0
    pins: int = 0
    rejections: int = 0
    backtracks: int = 0


def _allowed(index: Index, req: ReqPair) -> frozenset[str]:
    """Return the versions of a project that a specifier allows (read with `packaging`)."""
    from packaging.specifiers import SpecifierSet
    spec = SpecifierSet(req[1])
    project = index.by_name.get(req[0])
    versions = [r.version for r in project.releases] if project else []
    return frozenset(spec.filter(versions, prereleases=True))


class IndexProvider:
    """resolvelib provider over an `Index`; built lazily so resolvelib is imported only to run."""

    def __init__(self, index: Index, strategy: str = "pip", order: str = "highest"):
        self.index, self.strategy, self.order = index, strategy, order
        self.requested = {name: k for k, (name, _) in enumerate(index.root)}
        self._reqs: dict[ReqPair, Requirement] = {}
        self._candidates = {
            p.name: sorted((Candidate(p.name, r.version) for r in p.releases),
                           key=lambda c: value_of(c.version), reverse=order == "highest")
            for p in index.projects}
        self._deps = {(p.name, r.version): r.requires for p in index.projects for r in p.releases}

    def requirement(self, pair: ReqPair) -> Requirement:
        """Return the (cached) requirement object of a (name, specifier) pair."""
        req = self._reqs.get(pair)
        if req is None:
            req = self._reqs[pair] = Requirement(pair[0], pair[1], _allowed(self.index, pair))
        return req

    def identify(self, requirement_or_candidate: Any) -> str:
        return requirement_or_candidate.name

    def get_preference(self, identifier, resolutions, candidates, information, backtrack_causes):
        order = self.requested.get(identifier, len(self.requested))
        if self.strategy == "fewest":
            return (sum(1 for _ in candidates[identifier]), order, identifier)
        specs = [info.requirement.spec for info in information[identifier]]
        pinned = any(s.startswith("==") for s in specs)
        return (not pinned, order, not any(specs), identifier)

    def narrow_requirement_selection(self, identifiers, resolutions, candidates, information,
                                     backtrack_causes):
        if self.strategy != "pip":
            return identifiers
        causes = {info.requirement.name for info in backtrack_causes}
        causes |= {info.parent.name for info in backtrack_causes if info.parent is not None}
        narrowed = [name for name in identifiers if name in causes]
        return narrowed or identifiers

    def find_matches(self, identifier, requirements, incompatibilities):
        reqs = list(requirements[identifier])
        bad = {c.version for c in incompatibilities[identifier]}
        return [c for c in self._candidates.get(identifier, ())
                if c.version not in bad and all(c.version in r.allowed for r in reqs)]

    def is_satisfied_by(self, requirement: Requirement, candidate: Candidate) -> bool:
        return candidate.version in requirement.allowed

    def get_dependencies(self, candidate: Candidate):
        return [self.requirement(pair) for pair in self._deps[(candidate.name, candidate.version)]]


def make_reporter(stats: RunStats, deadline: float | None):
    """Return a resolvelib reporter that counts into `stats` and stops at the deadline."""
    from resolvelib import BaseReporter

    class Reporter(BaseReporter):
        def starting_round(self, index: int) -> None:
            stats.rounds = index + 1
            if deadline is not None and index % 64 == 0 and time.monotonic() > deadline:
                raise DeadlineReached

        def pinning(self, candidate) -> None:
            stats.pins += 1

        def rejecting_candidate(self, criterion, candidate) -> None:
            stats.rejections += 1

        def resolving_conflicts(self, causes) -> None:
            stats.backtracks += 1

    return Reporter()


def resolve(index: Index, *, strategy: str = "pip", order: str = "highest",
            max_rounds: int = DEFAULT_MAX_ROUNDS, timeout: float | None = None):
    """Return (mapping name -> version, stats) or raise resolvelib's errors / DeadlineReached."""
    from resolvelib import AbstractProvider, Resolver

    provider_cls = type("Provider", (IndexProvider, AbstractProvider), {})
    provider = provider_cls(index, strategy, order)
    stats = RunStats()
    deadline = time.monotonic() + timeout if timeout else None
    resolver = Resolver(provider, make_reporter(stats, deadline))
    try:
        result = resolver.resolve([provider.requirement(r) for r in index.root],
                                  max_rounds=max_rounds)
    except Exception as err:
        err.stats = stats    # type: ignore[attr-defined]  # the caller reports how far it got
        raise
    return {name: c.version for name, c in result.mapping.items()}, stats


def explain_impossible(causes) -> str:
    """Return resolvelib's causes of an impossible resolution as one line."""
    parts = []
    for info in list(causes)[:6]:
        parent = f"{info.parent.name} {info.parent.version}" if info.parent else "the root"
        parts.append(f"{info.requirement} (required by {parent})")
    more = len(list(causes)) - len(parts)
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")
