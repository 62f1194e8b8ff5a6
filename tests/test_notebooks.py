"""The example notebooks run from top to bottom, and are committed without outputs.

Each notebook in ``examples/`` is executed in a fresh kernel (nbclient) from the
``examples/`` directory, with a per-cell time limit, under matplotlib's inline
backend: figures are rendered headless by Agg and captured as PNG outputs, as
a reader of the notebook sees them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
NOTEBOOKS = sorted(EXAMPLES.glob("*.ipynb"))
CELL_TIMEOUT = 180  # seconds per cell


def test_there_are_example_notebooks():
    names = [p.name for p in NOTEBOOKS]
    for expected in (
        "01_muddy_children.ipynb",
        "02_announcements_and_action_models.ipynb",
        "03_bs_knowledge.ipynb",
        "04_boerenbridge_guesses.ipynb",
        "05_formulas_on_game_states.ipynb",
    ):
        assert expected in names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_committed_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [], f"{path.name}: a code cell has outputs; clear them"
            assert cell.execution_count is None, f"{path.name}: clear the execution counts"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path, monkeypatch):
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        nb,
        timeout=CELL_TIMEOUT,
        kernel_name="python3",
        resources={"metadata": {"path": str(EXAMPLES)}},
    )
    client.execute()  # raises CellExecutionError, naming the cell, on any error
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    # the notebook shows its pictures
    assert any("image/png" in o.get("data", {}) for o in outputs)
    if path.stem == "01_muddy_children":
        # display hooks: the first model cell shows a picture, a formula cell its LaTeX
        first_model = next(
            c for c in nb.cells if c.cell_type == "code" and c.source.splitlines()[-1] == "pm"
        )
        assert "image/png" in first_model.outputs[0]["data"]
        assert any("text/latex" in o.get("data", {}) for o in outputs)
