"""The worked example notebook runs from top to bottom (its cells assert what they show)."""

import pathlib

import nbformat
from nbclient import NotebookClient

NOTEBOOK = pathlib.Path(__file__).resolve().parents[1] / "notebooks" / "worked_example.ipynb"


def test_worked_example_notebook_runs():
    # No skip when nbclient or a kernel is missing: the import above or execute() fails,
    # and so does this test, because a notebook nobody runs stops working unnoticed.
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOK.parent)}})
    client.execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors
    images = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if "image/png" in o.get("data", {})]
    assert len(images) == 5  # the map, the close-up, the declared run, the two lays, the custom map
    text = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code"
                   for o in c.get("outputs", []))
    assert "proven optimal" in text and "110" in text
    assert "[track-shared]" in text
    assert "Lay A: Wilmington, tile 3: +10" in text
