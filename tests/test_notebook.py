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


def test_the_notebook_uses_only_the_public_api():
    # docs/api.md: what `import trainruns` offers is all a user may rely on; the worked
    # example shows it, so it reaches nothing deeper (a moved module would break it)
    import re

    import trainruns

    nb = nbformat.read(NOTEBOOK, as_version=4)
    code = "\n".join(c.source for c in nb.cells if c.cell_type in ("code", "markdown"))
    deep = re.findall(r"(?:from|import)\s+trainruns\.\w+", code)
    assert deep == []
    used = set(re.findall(r"from trainruns import ([\w, ]+)", code)[0].replace(" ", "").split(","))
    used |= set(re.findall(r"trainruns\.(\w+)", code))
    assert used and used <= set(trainruns.__all__)


def test_every_public_name_is_documented_and_loads():
    import trainruns

    api = (NOTEBOOK.parents[1] / "docs" / "api.md").read_text()
    for name in trainruns.__all__:
        assert f"`{name}" in api, name
        assert getattr(trainruns, name) is not None
