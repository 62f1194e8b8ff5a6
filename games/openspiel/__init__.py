"""OpenSpiel interop: our games as ``pyspiel`` games, and OpenSpiel's IS-MCTS at our tables.

Optional: needs the ``open-spiel`` package (``pip install "kripke-games[openspiel]"``).
Importing this package does not import OpenSpiel; the modules do:

* :mod:`games.openspiel.spiel` registers every game with OpenSpiel
  (:func:`~games.openspiel.spiel.register_games`; names ``kripke_bs``,
  ``kripke_boerenbridge``, ``kripke_shengji``, ``kripke_bs_zpy``);
* :mod:`games.openspiel.ismcts` seats OpenSpiel's IS-MCTS in our tournaments as
  the bot ``ismcts`` (BS and BoerenBridge), its determinizations drawn by the
  exact deal sampler of :mod:`games.deal` from the seat's own observations, and
  seats our bots in OpenSpiel's ``evaluate_bots``;
* :mod:`games.openspiel.registry` registers the bot name ``ismcts`` where
  OpenSpiel is installed, without importing it.
"""

from __future__ import annotations

__all__: list[str] = []
