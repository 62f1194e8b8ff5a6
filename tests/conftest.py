"""Fixtures shared by the symbolic-engine tests."""

from __future__ import annotations

import pytest

from kripke.symbolic import available_backends, get_limits, use_backend
from kripke.symbolic._bdd import _restore_limits


@pytest.fixture(params=available_backends())
def backend(request: pytest.FixtureRequest):
    """Each installed BDD backend in turn (a module may override this with its own scope)."""
    with use_backend(request.param):
        yield request.param


@pytest.fixture
def limits():
    """The size limits as they were before the test, restored afterwards (managers included)."""
    saved = get_limits()
    yield
    _restore_limits(saved)
