"""kripke: dynamic epistemic logic with explicit and symbolic engines.

The formula language (:mod:`kripke.formulas`, :mod:`kripke.parser`), explicit
Kripke models (:mod:`kripke.models`), updates (:mod:`kripke.updates`), the
common entry points (:mod:`kripke.semantics`) and classic puzzles
(:mod:`kripke.puzzles`).

Examples
--------
>>> from kripke import parse, muddy_children, announce, holds
>>> pm = announce(muddy_children(2), "m1 | m2")
>>> holds(pm, "K_1 m1")
False
"""

from __future__ import annotations

from kripke.errors import (
    EngineError,
    InvalidModelError,
    KripkeError,
    ModelFileError,
    ParseError,
    PreconditionError,
    SizeLimitError,
    UnknownAgentError,
    UnknownAtomError,
    UnknownWorldError,
)
from kripke.formulas import (
    BOT,
    TOP,
    Action,
    ActionDiamond,
    And,
    Announce,
    AnnounceDiamond,
    Atom,
    Bottom,
    C,
    Common,
    D,
    Distributed,
    E,
    Everybody,
    Formula,
    Iff,
    Implies,
    K,
    Know,
    KnowWhether,
    Kw,
    M,
    Not,
    Or,
    Possible,
    Top,
    atom,
    atoms,
    conj,
    disj,
)
from kripke.models import KripkeModel, PointedModel, load_model, save_model
from kripke.parser import parse
from kripke.puzzles import muddy_children
from kripke.semantics import check, count, holds, is_valid, truth_set
from kripke.updates import (
    ActionModel,
    announce,
    announce_all,
    is_bisimilar,
    minimize,
    private_announcement,
    product_update,
    public_announcement,
    semi_private_announcement,
    show_card,
)

__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    """The symbolic engine's names, imported on first use (it loads the BDD backend)."""
    if name in _SYMBOLIC:
        import kripke.symbolic as symbolic

        return getattr(symbolic, name)
    raise AttributeError(f"module 'kripke' has no attribute {name!r}")


_SYMBOLIC = ("KnowledgeStructure", "PointedStructure", "to_symbolic", "to_explicit")

__all__ = [
    "EngineError",
    "InvalidModelError",
    "KripkeError",
    "ModelFileError",
    "ParseError",
    "PreconditionError",
    "SizeLimitError",
    "UnknownAgentError",
    "UnknownAtomError",
    "UnknownWorldError",
    "BOT",
    "TOP",
    "Action",
    "ActionDiamond",
    "And",
    "Announce",
    "AnnounceDiamond",
    "Atom",
    "Bottom",
    "C",
    "Common",
    "D",
    "Distributed",
    "E",
    "Everybody",
    "Formula",
    "Iff",
    "Implies",
    "K",
    "Know",
    "KnowWhether",
    "Kw",
    "M",
    "Not",
    "Or",
    "Possible",
    "Top",
    "atom",
    "atoms",
    "conj",
    "disj",
    "KripkeModel",
    "PointedModel",
    "load_model",
    "save_model",
    "parse",
    "muddy_children",
    "check",
    "count",
    "holds",
    "is_valid",
    "truth_set",
    "ActionModel",
    "announce",
    "announce_all",
    "is_bisimilar",
    "minimize",
    "private_announcement",
    "product_update",
    "public_announcement",
    "semi_private_announcement",
    "show_card",
    "KnowledgeStructure",
    "PointedStructure",
    "to_symbolic",
    "to_explicit",
]
