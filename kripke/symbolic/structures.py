"""Knowledge structures: a vocabulary, a state law (a BDD) and what each agent observes.

A state is an assignment of truth values to the vocabulary that satisfies the
law.  An S5 agent observes some variables: two states look the same to it
when they agree on those.  A belief (K or KD45) agent instead has a
relational BDD over the variables and their primed copies: state *s* sees
state *t* when the relation holds of *(s, t')*.  Formulas get truth sets
(BDDs) bottom-up, memoised per structure; structures are immutable values
and every update returns a new one.

Examples
--------
>>> from kripke.symbolic import KnowledgeStructure, PointedStructure
>>> ks = KnowledgeStructure(["m1", "m2"], observes={"1": ["m2"], "2": ["m1"]})
>>> ks.num_states()
4
>>> pm = PointedStructure(ks, {"m1", "m2"})
>>> pm = pm.announce("m1 | m2")
>>> pm.holds("~Kw_1 m1 & ~Kw_2 m2")
True
>>> pm.announce("~Kw_1 m1 & ~Kw_2 m2").holds("K_1 m1 & K_2 m2")
True

Notes
-----
Truth clauses, for law θ and the set *O_a* of variables agent *a* observes
(van Benthem, van Eijck, Gattinger & Su, "Symbolic model checking for
dynamic epistemic logic — S5 and beyond", *J. Logic Comput.* 28, 2018):

* ``K_a φ`` is ``∀(V ∖ O_a)(θ → φ)``; ``M_a φ`` is ``∃(V ∖ O_a)(θ ∧ φ)``.
* ``D_G φ`` quantifies the variables no member of *G* observes.
* ``C_G φ`` is the greatest fixed point of ``X ↦ ⋀_{a∈G} K_a(φ ∧ X)``.
* ``[!ψ]φ`` is ``ψ → φ`` evaluated in the structure with law ``θ ∧ ψ``.
* For a belief agent with relation Ω: ``K_a φ`` is ``∀V'(Ω ∧ θ' → φ')``.
"""

from __future__ import annotations

import collections
import sys
import weakref
from collections.abc import Iterable, Iterator, Mapping
from fractions import Fraction
from typing import Any

from kripke.errors import (
    EngineError,
    InvalidModelError,
    PreconditionError,
    UnknownAgentError,
    UnknownAtomError,
    UnknownWorldError,
)
from kripke.formulas import (
    TOP,
    Action,
    ActionDiamond,
    And,
    Announce,
    AnnounceDiamond,
    Atom,
    Bottom,
    Common,
    Distributed,
    Everybody,
    Formula,
    Iff,
    Implies,
    Know,
    KnowWhether,
    Not,
    Or,
    Possible,
    Top,
    as_formula,
    check_agent_name,
)
from kripke.symbolic._bdd import BDD, Manager, is_bdd, manager
from kripke.symbolic.boolean import bool_bdd, key_of

__all__ = ["KnowledgeStructure", "PointedStructure"]

_LRU_SIZE = 6
_CANON_CACHE_LIMIT = 1_000_000
_RECURSION = 50_000


# ------------------------------------------------------------ canonical ids
def _cid(mgr: Manager, f: Formula) -> int:
    """A small integer naming ``f`` up to structural equality (hash-consing).

    Each node is keyed by its connective and its children's ids, so equal
    formulas get equal ids without ever hashing a whole (possibly deep)
    formula tree.
    """
    cache = mgr.canon_cache
    hit = cache.get(id(f))
    if hit is not None and hit[0] is f:
        return hit[1]
    intern = mgr.intern
    chains: dict[int, list[Formula]] = {}
    stack: list[tuple[Formula, bool]] = [(f, False)]
    while stack:
        g, ready = stack.pop()
        h = cache.get(id(g))
        if h is not None and h[0] is g:
            continue
        if not ready:
            stack.append((g, True))
            kids: Iterable[Formula] = g.children()
            if isinstance(g, Not) and isinstance(g.arg, Iff):
                leaves = _xor_leaves(g)
                if leaves is not None:  # a chain of exclusive ors: named by its operands
                    chains[id(g)] = leaves
                    kids = leaves
            for c in kids:
                h = cache.get(id(c))
                if h is None or h[0] is not c:
                    stack.append((c, False))
            continue
        leaves = chains.pop(id(g), None)
        if leaves is not None:
            odd: set[int] = set()
            for c in leaves:
                odd ^= {cache[id(c)][1]}
            key: tuple[Any, ...] = ("xor", frozenset(odd))
        else:
            key = _node_key(g, cache)
        cid = intern.get(key)
        if cid is None:
            cid = len(intern)
            intern[key] = cid
            flags = mgr.propositional
            kind = key[0]
            if kind == "a" or kind == "T" or kind == "F":
                flags.append(True)
            elif kind == "xor":
                flags.append(all(flags[c] for c in key[1]))
            elif kind in _BOOLEAN:
                prop = True
                for child in key[1:]:
                    if not flags[child]:
                        prop = False
                        break
                flags.append(prop)
            else:
                flags.append(False)
        cache[id(g)] = (g, cid)
    return cache[id(f)][1]


_BOOLEAN = frozenset(["T", "F", "a", "~", "&", "|", ">", "="])


def _node_key(g: Formula, cache: dict[int, tuple[Any, int]]) -> tuple[Any, ...]:
    def c(x: Formula) -> int:
        return cache[id(x)][1]

    match g:
        case Top():
            return ("T",)
        case Bottom():
            return ("F",)
        case Atom():
            return ("a", g.key)
        case Not(arg):
            return ("~", c(arg))
        case And(args):
            return ("&", *map(c, args))
        case Or(args):
            return ("|", *map(c, args))
        case Implies(left, right):
            return (">", c(left), c(right))
        case Iff(left, right):
            return ("=", c(left), c(right))
        case Know(agent, arg):
            return ("K", agent, c(arg))
        case Possible(agent, arg):
            return ("M", agent, c(arg))
        case KnowWhether(agent, arg):
            return ("W", agent, c(arg))
        case Everybody(group, arg):
            return ("E", frozenset(group), c(arg))
        case Common(group, arg):
            return ("C", frozenset(group), c(arg))
        case Distributed(group, arg):
            return ("D", frozenset(group), c(arg))
        case Announce(ann, arg):
            return ("!", c(ann), c(arg))
        case AnnounceDiamond(ann, arg):
            return ("<!>", c(ann), c(arg))
        case Action(model, events, arg):
            return ("[A]", model, frozenset(events), c(arg))
        case ActionDiamond(model, events, arg):
            return ("<A>", model, frozenset(events), c(arg))
        case _:
            raise EngineError(f"the symbolic engine cannot evaluate {type(g).__name__}")


# ------------------------------------------------------------------ frames
class _Frame:
    """Everything of a structure but its law: variables and agents.

    Structures that differ only in their law (one announced from the other)
    share a frame, its quantification cubes, and a table from law to
    structure, so equal structures are one object with one memo.
    """

    __slots__ = (
        "mgr",
        "vocab",
        "vocab_set",
        "defs",
        "varatoms",
        "hidden",
        "allvars",
        "agents",
        "obs",
        "rel",
        "labels",
        "_unobs",
        "_dist",
        "_eqrel",
        "_primes_cube",
        "_hidden_cube",
        "_all_cube",
        "_by_law",
        "_lru",
        "_ext",
        "prop_memo",
        "__weakref__",
    )

    def __init__(
        self,
        mgr: Manager,
        vocab: tuple[str, ...],
        hidden: tuple[str, ...],
        obs: dict[str, frozenset[str]],
        rel: dict[str, BDD],
        agents: tuple[str, ...],
        labels: dict[Any, dict[str, bool]] | None = None,
        defs: dict[str, BDD] | None = None,
    ):
        self.mgr = mgr
        self.vocab = vocab
        self.vocab_set = frozenset(vocab)
        self.defs = defs or {}
        self.varatoms = tuple(k for k in vocab if k not in self.defs)
        self.hidden = hidden
        self.allvars = self.varatoms + hidden
        self.agents = agents
        self.obs = obs
        self.rel = rel
        self.labels = labels
        self._unobs: dict[str, BDD] = {}
        self._dist: dict[frozenset[str], BDD] = {}
        self._eqrel: dict[str, BDD] = {}
        self._primes_cube: BDD | None = None
        self._hidden_cube: BDD | None = None
        self._all_cube: BDD | None = None
        self._by_law: weakref.WeakValueDictionary[Any, KnowledgeStructure] = (
            weakref.WeakValueDictionary()
        )
        self._lru: collections.deque[KnowledgeStructure] = collections.deque(maxlen=_LRU_SIZE)
        self._ext: dict[Any, Any] = {}
        #: truth sets of propositional formulas: the same in every structure of the frame
        self.prop_memo: dict[int, BDD] = {}

    def structure(self, law: BDD) -> KnowledgeStructure:
        """The structure of this frame with ``law`` (one object per law)."""
        hit = self._by_law.get(law)
        if hit is None:
            hit = KnowledgeStructure._make(self, law)
            self._by_law[law] = hit
        self._lru.append(hit)
        return hit

    def atom(self, key: str) -> BDD:
        """The BDD of an atom: its variable, or its definition."""
        d = self.defs.get(key)
        if d is not None:
            return d
        if key not in self.vocab_set:
            raise UnknownAtomError(
                f"the structure has no atom {key!r}; its atoms include {list(self.vocab[:8])}"
            )
        return self.mgr.var(key)

    def valuation(self, assignment: Mapping[str, bool]) -> frozenset[str]:
        """The atoms true under an assignment to every variable."""
        true = {k for k in self.varatoms if assignment[k]}
        if self.defs:
            mgr = self.mgr
            point = mgr.assignment_cube({v: assignment[v] for v in self.allvars})
            true |= {k for k, d in self.defs.items() if (point & d) != mgr.false}
        return frozenset(true)

    def agent_kind(self, agent: str) -> str:
        if agent in self.obs:
            return "s5"
        if agent in self.rel:
            return "rel"
        raise UnknownAgentError(
            f"unknown agent {agent!r}; the structure's agents are {', '.join(self.agents) or 'none'}"
        )

    def all_cube(self) -> BDD:
        if self._all_cube is None:
            self._all_cube = self.mgr.cube(self.allvars)
        return self._all_cube

    def unobserved(self, agent: str) -> tuple[BDD, tuple[str, ...] | int]:
        """The cube of the variables ``agent`` does not observe, and their names
        when there are few of them (else their number)."""
        hit = self._unobs.get(agent)
        if hit is None:
            seen = self.obs[agent]
            mgr = self.mgr
            k = len(self.allvars) - len(seen)
            if k <= 1024:
                names = tuple(v for v in self.allvars if v not in seen)
                hit = (mgr.cube(names), names)
            else:
                hit = (mgr.exists(mgr.cube(seen), self.all_cube()), k)
            self._unobs[agent] = hit
        return hit

    def distributed_cube(self, group: frozenset[str]) -> BDD:
        cube = self._dist.get(group)
        if cube is None:
            seen: set[str] = set()
            for a in group:
                seen |= self.obs[a]
            cube = self.mgr.cube(v for v in self.allvars if v not in seen)
            self._dist[group] = cube
        return cube

    def primes_cube(self) -> BDD:
        if self._primes_cube is None:
            self.mgr.ensure_primes(self.allvars)
            self._primes_cube = self.mgr.cube(v + "'" for v in self.allvars)
        return self._primes_cube

    def hidden_cube(self) -> BDD:
        if self._hidden_cube is None:
            self._hidden_cube = self.mgr.cube(self.hidden)
        return self._hidden_cube

    def relation(self, agent: str) -> BDD:
        """The agent's accessibility as a BDD over variables and primed copies."""
        if agent in self.rel:
            return self.rel[agent]
        hit = self._eqrel.get(agent)
        if hit is None:
            mgr = self.mgr
            hit = mgr.true
            for v in sorted(self.obs[agent], key=mgr.level, reverse=True):
                hit = mgr.var(v).equiv(mgr.primed(v)) & hit
            self._eqrel[agent] = hit
        return hit


# --------------------------------------------------------------- structure
class KnowledgeStructure:
    """A knowledge (or belief) structure: vocabulary, state law, observations.

    Parameters
    ----------
    vocabulary : iterable of Atom or str
        The propositional variables, e.g. ``[atom("has", p, c) for ...]``.
        Their order is the BDD variable order unless ``order`` is given.
    law : Formula, str or BDD, optional
        The state law: which assignments are states (default: all).  A
        formula must be propositional.
    observes : mapping of agent to iterable of atoms, optional
        S5 agents and the atoms each observes.
    relations : mapping of agent to BDD, optional
        Belief (K, KD45) agents: a BDD over the vocabulary and its primed
        copies (see :meth:`primed`); state *s* sees *t* when it holds of
        *s* and *t'*.
    definitions : mapping of atom to Formula, str or BDD, optional
        Defined atoms: each is true exactly where its propositional
        definition over the vocabulary is.  A card's location held in a few
        binary variables, with ``has(p, c)`` defined from them, makes a
        much smaller law than one variable per atom.  Agents observe
        variables, not defined atoms.
    order : iterable of Atom or str, optional
        The BDD variable order (a permutation of the vocabulary).  Good
        orders keep related variables close: card-major for deals (all
        places of one card together), suits and ranks in sequence.
    backend : {"cudd", "autoref"}, optional
        The BDD backend (default: the current one, see
        :func:`kripke.symbolic.set_backend`).

    Raises
    ------
    InvalidModelError
        For a repeated atom, an agent given twice, or a relation outside
        the vocabulary.
    UnknownAtomError
        If the law or an observation names an atom outside the vocabulary.

    Examples
    --------
    >>> from kripke.symbolic import KnowledgeStructure
    >>> from kripke.symbolic.boolean import exactly
    >>> cards = ["has(a, 1)", "has(b, 1)", "has(a, 2)", "has(b, 2)"]
    >>> law = exactly(1, cards[:2]) & exactly(1, cards[2:]) & exactly(1, ["has(a, 1)", "has(a, 2)"])
    >>> ks = KnowledgeStructure(cards, law, {"a": cards[::2], "b": cards[1::2]})
    >>> ks.num_states(), ks.is_valid("Kw_a has(b, 1)")
    (2, True)
    """

    __slots__ = (
        "_frame",
        "law",
        "_memo",
        "_children",
        "_rel_law",
        "_nstates",
        "_origin",
        "_proj",
        "_size",
        "__weakref__",
    )

    _frame: _Frame
    law: BDD

    def __init__(
        self,
        vocabulary: Iterable[Atom | str],
        law: Formula | str | BDD = TOP,
        observes: Mapping[Any, Iterable[Atom | str]] | None = None,
        relations: Mapping[Any, BDD] | None = None,
        *,
        definitions: Mapping[Atom | str, Formula | str | BDD] | None = None,
        order: Iterable[Atom | str] | None = None,
        backend: str | None = None,
    ):
        mgr = manager(backend)
        vocab = tuple(key_of(a) for a in vocabulary)
        seen: set[str] = set()
        for k in vocab:
            if k in seen:
                raise InvalidModelError(f"atom {k!r} is listed twice in the vocabulary")
            seen.add(k)
        declare = list(vocab)
        if order is not None:
            declare = [key_of(a) for a in order]
            if sorted(declare) != sorted(vocab):
                raise InvalidModelError("order must list every atom of the vocabulary once")
        with mgr.guard("declaring the vocabulary"):
            mgr.declare(declare)
            mgr.ensure_order(declare)
        obs: dict[str, frozenset[str]] = {}
        for agent, atoms in (observes or {}).items():
            name = check_agent_name(agent)
            keys = frozenset(key_of(a) for a in atoms)
            bad = sorted(keys - seen - {key_of(d) for d in (definitions or {})})
            if bad:
                raise UnknownAtomError(
                    f"agent {name!r} observes atom {bad[0]!r}, which is not in the vocabulary"
                )
            obs[name] = keys
        rel: dict[str, BDD] = {}
        allowed = seen | {k + "'" for k in seen}
        for agent, r in (relations or {}).items():
            name = check_agent_name(agent)
            if name in obs:
                raise InvalidModelError(f"agent {name!r} has both observations and a relation")
            if not is_bdd(r) or r.bdd is not mgr.bdd:
                raise InvalidModelError(
                    f"the relation of agent {name!r} must be a BDD of the structure's backend"
                )
            extra = sorted(mgr.support(r) - allowed)
            if extra:
                raise InvalidModelError(
                    f"the relation of agent {name!r} uses {extra[0]!r}, outside the vocabulary "
                    "and its primed copies"
                )
            rel[name] = r
        defs: dict[str, BDD] = {}
        for a, d in (definitions or {}).items():
            key = key_of(a)
            if key in seen or key in defs:
                raise InvalidModelError(f"atom {key!r} is defined twice or also a variable")
            defs[key] = _law_bdd(mgr, d, seen, what=f"definition of {key}")
        for name, keys in obs.items():
            bad = sorted(keys & set(defs))
            if bad:
                raise InvalidModelError(
                    f"agent {name!r} observes the defined atom {bad[0]!r}; "
                    "let it observe the variables the atom is defined from"
                )
        agents = tuple(obs) + tuple(rel)
        frame = _Frame(mgr, vocab + tuple(defs), (), obs, rel, agents, defs=defs)
        self._init(frame, _law_bdd(mgr, law, seen, defs))
        frame._by_law[self.law] = self

    @classmethod
    def _make(cls, frame: _Frame, law: BDD) -> KnowledgeStructure:
        self = cls.__new__(cls)
        self._init(frame, law)
        return self

    def _init(self, frame: _Frame, law: BDD) -> None:
        self._frame = frame
        self.law = law
        self._memo: dict[int, BDD] = {}
        self._children: dict[Any, Any] = {}
        self._rel_law: dict[str, BDD] = {}
        self._nstates: int | None = None
        self._origin: Any = None
        self._proj: dict[tuple[str, tuple[str, ...]], BDD] = {}
        self._size: int | None = None

    # ------------------------------------------------------------ queries
    @property
    def manager(self) -> Manager:
        """The BDD manager (see :mod:`kripke.symbolic._bdd`)."""
        return self._frame.mgr

    @property
    def vocabulary(self) -> tuple[str, ...]:
        """The atoms, as canonical texts."""
        return self._frame.vocab

    @property
    def agents(self) -> tuple[str, ...]:
        return self._frame.agents

    @property
    def hidden(self) -> tuple[str, ...]:
        """Auxiliary variables the engine added (event variables, old copies)."""
        return self._frame.hidden

    def observes(self, agent: object) -> frozenset[str]:
        """The variables an S5 agent observes."""
        name = str(agent)
        if self._frame.agent_kind(name) != "s5":
            raise EngineError(f"agent {name!r} is a belief agent with a relation, not observations")
        return self._frame.obs[name]

    def relation(self, agent: object) -> BDD:
        """The agent's accessibility as a BDD over variables and primed copies."""
        name = str(agent)
        self._frame.agent_kind(name)
        return self._frame.relation(name)

    def is_s5(self, agent: object | None = None) -> bool:
        """Whether the agent (every agent, by default) is an S5 agent with observations."""
        if agent is None:
            return not self._frame.rel
        return self._frame.agent_kind(str(agent)) == "s5"

    def var(self, a: Atom | str) -> BDD:
        """The BDD of an atom of the vocabulary (a defined atom's definition)."""
        return self._frame.atom(self._key(a))

    def primed(self, a: Atom | str) -> BDD:
        """The BDD of an atom's primed copy (for relations)."""
        key = self._key(a)
        fr = self._frame
        if key in fr.defs:
            return fr.mgr.prime(fr.defs[key])
        return fr.mgr.primed(key)

    def _key(self, a: Atom | str) -> str:
        key = key_of(a)
        if key not in self._frame.vocab_set:
            raise UnknownAtomError(f"{key!r} is not in the vocabulary")
        return key

    def num_states(self) -> int:
        """The exact number of states."""
        if self._nstates is None:
            fr = self._frame
            with fr.mgr.guard("counting states"):
                self._nstates = fr.mgr.count(self.law, fr.allvars)
        return self._nstates

    def __len__(self) -> int:
        return self.num_states()

    def __repr__(self) -> str:
        voc = list(self.vocabulary[:6]) + (["..."] if len(self.vocabulary) > 6 else [])
        return (
            f"KnowledgeStructure({len(self.vocabulary)} atoms {voc}, "
            f"{self.num_states()} states, agents {list(self.agents)})"
        )

    # ----------------------------------------------------------- semantics
    def truth(self, f: Formula | str | BDD) -> BDD:
        """The BDD of ``f`` relative to the law (it may differ outside the states).

        A BDD is passed through unchanged, so every method taking a formula
        also takes a set of states.
        """
        if is_bdd(f):
            if getattr(f, "bdd", None) is not self._frame.mgr.bdd:
                raise EngineError("the BDD belongs to another BDD manager")
            return f
        f = as_formula(f)
        mgr = self._frame.mgr
        if len(mgr.canon_cache) > _CANON_CACHE_LIMIT:  # never while evaluating
            mgr.canon_cache.clear()
        limit = sys.getrecursionlimit()
        if limit < _RECURSION:  # deeply nested formulas: hundreds of announcements
            sys.setrecursionlimit(_RECURSION)
        try:
            r = self._ev(f)
        except (ValueError, RuntimeError, MemoryError) as exc:
            raise mgr.size_error(exc, lambda: f"evaluating {_short(f)}") from None
        finally:
            if limit < _RECURSION:
                sys.setrecursionlimit(limit)
        mgr.check()
        return r

    def truth_set(self, f: Formula | str) -> BDD:
        """The states where ``f`` is true, as a BDD (inside the law)."""
        return self.law & self.truth(f)

    def holds(self, f: Formula | str, state: Any) -> bool:
        """Whether ``f`` is true at ``state`` (see :meth:`state`)."""
        d = self.state(state)
        return (d & ~self.truth(f)) == self._frame.mgr.false

    def is_valid(self, f: Formula | str) -> bool:
        """Whether ``f`` is true in every state."""
        return (self.law & ~self.truth(f)) == self._frame.mgr.false

    def count(self, f: Formula | str = TOP) -> int:
        """The exact number of states where ``f`` is true."""
        fr = self._frame
        t = self.truth_set(f)
        with fr.mgr.guard("counting states"):
            return fr.mgr.count(t, fr.allvars)

    def probability(
        self, f: Formula | str, given: Formula | str = TOP, *, exact: bool = True
    ) -> Fraction | float:
        """The share of the states satisfying ``given`` where ``f`` is true.

        Exact (a :class:`~fractions.Fraction`) by default; ``exact=False``
        gives a float from the backend's floating-point counts, much faster
        on BDDs of many thousands of nodes.
        """
        g = self.truth_set(given)
        fr = self._frame
        mgr = fr.mgr
        if (self.law & g) == mgr.false:
            raise PreconditionError(f"no state satisfies {_short(as_formula(given))}")
        hit = g & self.truth(f)
        if exact:
            return Fraction(mgr.count(hit, fr.allvars), mgr.count(g, fr.allvars))
        return mgr.count_float(hit, fr.allvars) / mgr.count_float(g, fr.allvars)

    def states(self, f: Formula | str = TOP, limit: int | None = None) -> Iterator[frozenset[str]]:
        """The distinct valuations (sets of true atoms) of the states where ``f`` holds."""
        fr = self._frame
        mgr = fr.mgr
        u = self.truth_set(f)
        if not fr.defs:
            if fr.hidden:
                u = mgr.exists(fr.hidden_cube(), u)
            for i, a in enumerate(mgr.assignments(u, fr.varatoms)):
                if limit is not None and i >= limit:
                    return
                yield frozenset(k for k in fr.varatoms if a[k])
            return
        seen: set[frozenset[str]] = set()
        for a in mgr.assignments(u, fr.allvars):
            val = fr.valuation(a)
            if val not in seen:
                if limit is not None and len(seen) >= limit:
                    return
                seen.add(val)
                yield val

    def state(self, state: Any) -> BDD:
        """The BDD of a state (or set of states) inside the law.

        ``state`` is a collection of the atoms true there (the others are
        false), a mapping ``{atom: bool}`` fixing some atoms, a formula
        (every state where it holds), a BDD, or — for a structure made by
        :func:`~kripke.symbolic.to_symbolic` — a world label of the model.
        After a product update the auxiliary variables may tell apart
        several states with the same true atoms; a collection of atoms then
        names all of them.

        Raises
        ------
        UnknownWorldError
            If no state of the structure matches.
        """
        fr = self._frame
        mgr = fr.mgr
        d: BDD | None = None
        if fr.labels is not None:
            try:
                hit = fr.labels.get(state)
            except TypeError:
                hit = None
            if hit is not None:
                d = mgr.assignment_cube(hit)
        if d is not None:
            pass
        elif is_bdd(state):
            if state.bdd is not mgr.bdd:
                raise EngineError("the state BDD belongs to another BDD manager")
            d = state
        elif isinstance(state, Formula):
            d = self.truth(state)
        elif isinstance(state, Mapping):
            values = {self._key(a): bool(v) for a, v in state.items()}
            d = mgr.assignment_cube({k: v for k, v in values.items() if k not in fr.defs})
            for k, v in values.items():
                if k in fr.defs:
                    d = d & (fr.defs[k] if v else ~fr.defs[k])
        elif isinstance(state, str) or not isinstance(state, Iterable):
            raise UnknownWorldError(
                f"{state!r} is not a state: give the set of atoms true there, e.g. {{'m1', 'm2'}}"
            )
        else:
            true = {self._key(a) for a in state}
            d = mgr.assignment_cube({k: k in true for k in fr.varatoms})
            for k, dk in fr.defs.items():
                d = d & (dk if k in true else ~dk)
        d = d & self.law
        if d == mgr.false:
            raise UnknownWorldError(f"{_show_state(state)} is not a state of the structure")
        return d

    # ------------------------------------------------------------- updates
    def announce(self, f: Formula | str) -> KnowledgeStructure:
        """The public announcement of ``f``: keep the states where it is true."""
        return self._restrict(self.truth(f))

    def _restrict(self, t: BDD) -> KnowledgeStructure:
        law = self.law & t
        if law == self.law:
            return self
        return self._frame.structure(law)

    def product_update(self, action: Any, *, optimize: bool = True) -> KnowledgeStructure:
        """The product update with an action model (see :mod:`kripke.symbolic.transformers`)."""
        from kripke.symbolic.transformers import product

        out = product(self, action).structure
        return out.optimize() if optimize else out

    def optimize(self) -> KnowledgeStructure:
        """An equivalent structure without redundant auxiliary variables."""
        from kripke.symbolic.transformers import optimize

        return optimize(self)

    def point(self, state: Any) -> PointedStructure:
        """This structure pointed at ``state`` (see :meth:`state`)."""
        return PointedStructure(self, state)

    def to_explicit(self) -> Any:
        """The explicit :class:`~kripke.models.KripkeModel` (for small structures)."""
        from kripke.symbolic.translate import to_explicit

        return to_explicit(self)

    def _repr_png_(self) -> bytes | None:
        return _structure_png(self)

    # ----------------------------------------------------------- evaluator
    def _ev(self, f: Formula) -> BDD:
        fr = self._frame
        cid = _cid(fr.mgr, f)
        hit = self._memo.get(cid)
        if hit is None:
            if fr.mgr.propositional[cid]:
                hit = fr.prop_memo.get(cid)
                if hit is None:
                    hit = self._compute(f)
                    fr.prop_memo[cid] = hit
            else:
                hit = self._compute(f)
            self._memo[cid] = hit
        return hit

    def _compute(self, f: Formula) -> BDD:
        fr = self._frame
        mgr = fr.mgr
        match f:
            case Top():
                return mgr.true
            case Bottom():
                return mgr.false
            case Atom():
                return fr.atom(f.key)
            case Not(Iff()):
                leaves = _xor_leaves(f)
                if leaves is not None:
                    return self._parity(leaves)
                return ~self._ev(f.arg)  # type: ignore[attr-defined]
            case Not(arg):
                return ~self._ev(arg)
            case And(args):
                if len(args) == 2:
                    w = self._whether_pattern(args)
                    if w is not None:
                        return self._announce_whether(*w)
                r = self._ev(args[0])
                for a in args[1:]:
                    if r == mgr.false:
                        break
                    r = r & self._ev(a)
                return r
            case Or(args):
                r = self._ev(args[0])
                for a in args[1:]:
                    if r == mgr.true:
                        break
                    r = r | self._ev(a)
                return r
            case Implies(left, right):
                return ~self._ev(left) | self._ev(right)
            case Iff(left, right):
                return self._ev(left).equiv(self._ev(right))
            case Know(agent, arg):
                return self._box(agent, self._ev(arg))
            case Possible(agent, arg):
                return self._dia(agent, self._ev(arg))
            case KnowWhether(agent, arg):
                t = self._ev(arg)
                if fr.agent_kind(agent) == "s5":
                    cube, names = fr.unobserved(agent)
                    if (
                        isinstance(names, tuple)
                        and len(names) == 1
                        and (t == mgr.var(names[0]) or t == ~mgr.var(names[0]))
                    ):
                        # knowing whether the one unobserved variable: ∃x(θ∧x) ∧ ∃x(θ∧¬x) = ∀x θ
                        return ~mgr.forall(cube, self.law)
                    return ~(self._dia(agent, t) & self._dia(agent, ~t))
                return self._box(agent, t) | self._box(agent, ~t)
            case Everybody(group, arg):
                t = self._ev(arg)
                r = mgr.true
                for ag in dict.fromkeys(group):
                    r = r & self._box(ag, t)
                return r
            case Common(group, arg):
                return self._common(tuple(dict.fromkeys(group)), self._ev(arg))
            case Distributed(group, arg):
                return self._distributed(frozenset(group), self._ev(arg))
            case Announce(ann, arg):
                t = self._ev(ann)
                return ~t | self._restrict(t)._ev(arg)
            case AnnounceDiamond(ann, arg):
                t = self._ev(ann)
                return t & self._restrict(t)._ev(arg)
            case Action(model, events, arg) | ActionDiamond(model, events, arg):
                from kripke.symbolic.transformers import product

                info = product(self, model)
                inner = info.structure._ev(arg)
                return info.back(inner, events, diamond=isinstance(f, ActionDiamond))
            case _:
                raise EngineError(f"the symbolic engine cannot evaluate {type(f).__name__}")

    def _parity(self, leaves: list[Formula]) -> BDD:
        """The exclusive or of ``leaves``: equal leaves cancel, and the rest is
        combined from the bottom of the variable order up (each step then
        only adds nodes on top)."""
        mgr = self._frame.mgr
        odd: dict[int, Formula] = {}
        for g in leaves:
            c = _cid(mgr, g)
            if c in odd:
                del odd[c]
            else:
                odd[c] = g
        parts = sorted((self._ev(g) for g in odd.values()), key=lambda u: -u.level)
        r = mgr.false
        for u in parts:
            r = mgr.xor(r, u)
        return r

    def _box(self, agent: str, t: BDD) -> BDD:
        fr = self._frame
        if fr.agent_kind(agent) == "s5":
            return ~self._unobserved_exists(agent, ~t)
        mgr = fr.mgr
        return ~mgr.exists(fr.primes_cube(), self._rel_with_law(agent) & ~mgr.prime(t))

    def _dia(self, agent: str, t: BDD) -> BDD:
        fr = self._frame
        if fr.agent_kind(agent) == "s5":
            return self._unobserved_exists(agent, t)
        mgr = fr.mgr
        return mgr.exists(fr.primes_cube(), self._rel_with_law(agent) & mgr.prime(t))

    def _unobserved_exists(self, agent: str, t: BDD) -> BDD:
        """``∃(V ∖ O_a)(θ ∧ t)`` for an S5 agent.

        When ``t`` mentions few of the unobserved variables, the law is first
        projected onto the observed variables and those few (memoised: many
        formulas about the same variables share the projection), so the
        quantification runs on a much smaller BDD.
        """
        fr = self._frame
        mgr = fr.mgr
        cube, names = fr.unobserved(agent)
        if not names:
            return self.law & t
        if (
            isinstance(names, tuple)
            and len(names) >= 8
            and 2 * (t.dag_size - 1) <= len(names)
            and self._law_size() > 500
        ):
            supp = mgr.support(t)
            inside = tuple(v for v in names if v in supp)
            if 2 * len(inside) <= len(names):
                key = (agent, inside)
                proj = self._proj.get(key)
                if proj is None:
                    rest = tuple(v for v in names if v not in supp)
                    proj = mgr.exists(mgr.cube(rest), self.law)
                    self._proj[key] = proj
                return mgr.and_exists(proj, t, mgr.cube(inside), inside)
        return mgr.and_exists(self.law, t, cube, names, small=self._law_size() < 500)

    def _law_size(self) -> int:
        if self._size is None:
            self._size = self._frame.mgr.size(self.law)
        return self._size

    def _rel_with_law(self, agent: str) -> BDD:
        hit = self._rel_law.get(agent)
        if hit is None:
            fr = self._frame
            hit = fr.relation(agent) & fr.mgr.prime(self.law)
            self._rel_law[agent] = hit
        return hit

    def _common(self, group: tuple[str, ...], t: BDD) -> BDD:
        mgr = self._frame.mgr
        x = mgr.true
        while True:
            target = t & x
            y = mgr.true
            for a in group:
                y = y & self._box(a, target)
                if y == mgr.false:
                    break
            if y == x:
                return x
            x = y
            mgr.check()

    def _distributed(self, group: frozenset[str], t: BDD) -> BDD:
        fr = self._frame
        mgr = fr.mgr
        kinds = {fr.agent_kind(a) for a in group}
        if kinds == {"s5"}:
            cube = fr.distributed_cube(group)
            if cube == mgr.true:
                return t
            return ~mgr.exists(cube, self.law & ~t)
        omega = mgr.true
        for a in group:
            omega = omega & fr.relation(a)
        return ~mgr.exists(fr.primes_cube(), omega & mgr.prime(self.law) & ~mgr.prime(t))

    # -- announcing whether: [!f]g & [!~f]g, evaluated with one fresh variable
    def _whether_pattern(self, args: tuple[Formula, ...]) -> tuple[Formula, Formula] | None:
        a, b = args
        if not (isinstance(a, Announce) and isinstance(b, Announce)):
            return None
        mgr = self._frame.mgr
        if _cid(mgr, a.arg) != _cid(mgr, b.arg):
            return None
        if isinstance(b.announcement, Not) and _cid(mgr, b.announcement.arg) == _cid(
            mgr, a.announcement
        ):
            return a.announcement, a.arg
        if isinstance(a.announcement, Not) and _cid(mgr, a.announcement.arg) == _cid(
            mgr, b.announcement
        ):
            return b.announcement, a.arg
        return None

    def _announce_whether(self, f: Formula, g: Formula) -> BDD:
        """``[!f]g & [!~f]g``: everybody learns whether ``f``.

        The structure gains one variable *q* with law ``q ↔ f`` that every
        agent observes; its states split into the *f*- and the *~f*-part
        exactly as the two announcements would (van Benthem et al. 2018).
        """
        fr = self._frame
        mgr = fr.mgr
        t = self._ev(f)
        if (self.law & t) == mgr.false:  # everybody learns ~f
            return self._restrict(~t)._ev(g)
        if (self.law & ~t) == mgr.false:  # everybody learns f
            return self._ev(g)
        key = ("whether", _cid(mgr, f))
        ext = fr._ext.get(key)
        if ext is None:
            q = mgr.fresh("w")
            obs = {a: o | {q} for a, o in fr.obs.items()}
            rel = {a: r & mgr.var(q).equiv(mgr.primed(q)) for a, r in fr.rel.items()}
            frame = _Frame(mgr, fr.vocab, fr.hidden + (q,), obs, rel, fr.agents, fr.labels, fr.defs)
            ext = (frame, q)
            fr._ext[key] = ext
        frame, q = ext
        child = frame.structure(self.law & mgr.var(q).equiv(t))
        r = child._ev(g)
        return mgr.ite(t, mgr.assign(r, {q: True}), mgr.assign(r, {q: False}))


def _xor_leaves(f: Formula) -> list[Formula] | None:
    """The operands of a chain of exclusive ors written ``~(a <-> b)``
    (as :func:`kripke.puzzles.xor` writes them), or ``None`` for a single one."""
    out: list[Formula] = []
    stack = [f]
    links = 0
    while stack:
        g = stack.pop()
        if isinstance(g, Not) and isinstance(g.arg, Iff):
            stack.append(g.arg.right)
            stack.append(g.arg.left)
            links += 1
        else:
            out.append(g)
    return out if links >= 2 else None


def _law_bdd(
    mgr: Manager,
    law: Any,
    vocab: set[str],
    defs: Mapping[str, BDD] | None = None,
    what: str = "law",
) -> BDD:
    if is_bdd(law):
        if law.bdd is not mgr.bdd:
            raise InvalidModelError(f"the {what} BDD belongs to another BDD manager")
        extra = sorted(mgr.support(law) - vocab)
        if extra:
            raise UnknownAtomError(f"the {what} uses {extra[0]!r}, which is not in the vocabulary")
        return law
    f = as_formula(law)
    with mgr.guard(f"building the {what}"):
        return bool_bdd(mgr, f, frozenset(vocab), what=what, defs=defs)


def _short(f: Formula) -> str:
    """The formula's text if it is small, else its kind (never walks a big formula)."""
    budget = 60
    stack = [f]
    while stack and budget > 0:
        budget -= 1
        stack.extend(stack.pop().children())
    if stack:
        return f"a {type(f).__name__} formula"
    text = str(f)
    return text if len(text) < 80 else text[:77] + "..."


def _show_state(state: Any) -> str:
    if isinstance(state, set | frozenset | list | tuple):
        return "{" + ", ".join(sorted(str(s) for s in state)) + "}"
    return repr(state)


# ------------------------------------------------------------------ pointed
class PointedStructure:
    """A knowledge structure with its actual state (or several designated states).

    Parameters
    ----------
    structure : KnowledgeStructure
    actual : state
        One state as the collection of its true atoms (the others are
        false), or several: a mapping ``{atom: bool}`` fixing some atoms, a
        formula, or a BDD (see :meth:`KnowledgeStructure.state`).

    Examples
    --------
    >>> from kripke.symbolic import PointedStructure
    >>> from kripke.symbolic.puzzles import muddy_children
    >>> pm = muddy_children(3, [1, 2])
    >>> sorted(pm.actual), pm.num_states()
    (['m1', 'm2'], 8)
    """

    __slots__ = ("structure", "designated")

    def __init__(self, structure: KnowledgeStructure, actual: Any):
        if not isinstance(structure, KnowledgeStructure):
            raise InvalidModelError(
                f"PointedStructure needs a KnowledgeStructure, got {type(structure).__name__}"
            )
        self.structure = structure
        self.designated: BDD = structure.state(actual)

    @classmethod
    def _from_bdd(cls, structure: KnowledgeStructure, designated: BDD) -> PointedStructure:
        ps = cls.__new__(cls)
        ps.structure = structure
        ps.designated = designated
        return ps

    @property
    def agents(self) -> tuple[str, ...]:
        return self.structure.agents

    @property
    def vocabulary(self) -> tuple[str, ...]:
        return self.structure.vocabulary

    def num_states(self) -> int:
        """The number of states of the structure."""
        return self.structure.num_states()

    def states(self, f: Formula | str = TOP, limit: int | None = None) -> Iterator[frozenset[str]]:
        """The valuations of the structure's states where ``f`` holds (see
        :meth:`KnowledgeStructure.states`)."""
        return self.structure.states(f, limit)

    def designated_states(self) -> list[frozenset[str]]:
        """The valuations of the designated states."""
        return list(self.structure.states(self.designated))

    @property
    def actual(self) -> frozenset[str]:
        """The true atoms of the actual state (raises if several are designated)."""
        states = list(self.structure.states(self.designated, limit=2))
        fr = self.structure._frame
        one = fr.mgr.count(self.designated, fr.allvars) == 1
        if len(states) != 1 or not one:
            raise InvalidModelError("several states are designated; use designated_states()")
        return states[0]

    def holds(self, f: Formula | str) -> bool:
        """Whether ``f`` is true at every designated state."""
        s = self.structure
        return (self.designated & ~s.truth(f)) == s._frame.mgr.false

    def truth_set(self, f: Formula | str) -> BDD:
        return self.structure.truth_set(f)

    def _repr_png_(self) -> bytes | None:
        return _structure_png(self)

    def considered(self, agent: object) -> BDD:
        """The states ``agent`` considers possible at the designated states (a BDD).

        For an S5 agent: the states that agree with a designated state on the
        variables it observes; for a belief agent: the states its relation
        reaches from a designated state.
        """
        s = self.structure
        fr = s._frame
        a = str(agent)
        kind = fr.agent_kind(a)
        if kind == "s5":
            return s._unobserved_exists(a, self.designated) & s.law
        mgr = fr.mgr
        allvars = list(fr.allvars)
        image = mgr.exists(mgr.cube(allvars), self.designated & fr.relation(a))
        return mgr.rename(image, {v + "'": v for v in allvars}) & s.law

    def probability(
        self, agent: object, f: Formula | str, *, exact: bool = True
    ) -> Fraction | float:
        """``agent``'s probability of ``f``: the share of the states it considers
        possible (:meth:`considered`) where ``f`` holds, every state equally likely.

        Raises
        ------
        PreconditionError
            If ``agent`` considers no state possible (a belief agent with an
            empty relation at the designated states).

        Examples
        --------
        >>> from kripke.puzzles import muddy_children
        >>> pm = muddy_children(3, [1, 2], engine="symbolic").announce("m1 | m2 | m3")
        >>> pm.probability(1, "m1"), pm.probability(3, "m1"), pm.probability(3, "m3")
        (Fraction(1, 2), Fraction(1, 1), Fraction(1, 2))
        """
        s = self.structure
        fr = s._frame
        mgr = fr.mgr
        c = self.considered(agent)
        if c == mgr.false:
            raise PreconditionError(f"agent {agent} considers no state possible")
        hit = c & s.truth(as_formula(f))
        if exact:
            return Fraction(mgr.count(hit, fr.allvars), mgr.count(c, fr.allvars))
        return mgr.count_float(hit, fr.allvars) / mgr.count_float(c, fr.allvars)

    def announce(self, f: Formula | str, *, check: bool = True) -> PointedStructure:
        """Public announcement of ``f`` (which must be true at the actual state).

        Raises
        ------
        PreconditionError
            If ``f`` is false at a designated state (with ``check``) or at all of them.
        """
        f = as_formula(f)
        s = self.structure
        mgr = s._frame.mgr
        t = s.truth(f)
        bad = self.designated & ~t
        if check and bad != mgr.false:
            where = next(s.states(bad, limit=1))
            raise PreconditionError(
                f"cannot announce {_short(f)}: it is false at the actual state {_show_state(where)}"
            )
        keep = self.designated & t
        if keep == mgr.false:
            raise PreconditionError(f"announcing {_short(f)} removes every designated state")
        return PointedStructure._from_bdd(s._restrict(t), keep)

    def product_update(
        self, action: Any, events: Iterable[str] | str | None = None, *, optimize: bool = True
    ) -> PointedStructure:
        """The product update; the designated events default to all events."""
        from kripke.symbolic.transformers import product_pointed

        return product_pointed(self, action, events, optimize=optimize)

    def to_explicit(self) -> Any:
        """The explicit :class:`~kripke.models.PointedModel` (for small structures)."""
        from kripke.symbolic.translate import to_explicit

        return to_explicit(self)

    def __repr__(self) -> str:
        s = self.structure
        try:
            where = "actual=" + _show_state(self.actual)
        except InvalidModelError:
            where = "several designated states"
        return f"PointedStructure({s!r}, {where})"


_PNG_MAX_STATES = 64


def _structure_png(obj: KnowledgeStructure | PointedStructure) -> bytes | None:
    """The notebook picture of a small structure: its explicit model drawn by the
    registered model renderer (:mod:`kripke.display`); ``None``, hence the text
    form, beyond 64 states or without a renderer."""
    from kripke.display import render_png, renderers

    ks = obj.structure if isinstance(obj, PointedStructure) else obj
    if ks.num_states() > _PNG_MAX_STATES or "model" not in renderers():
        return None
    from kripke.symbolic.translate import to_explicit

    return render_png("model", to_explicit(obj))
