"""The README's notebook example runs as written (issue 16), on the demo corpus shipped in the package."""

import re
import warnings
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent


def test_the_readme_notebook_example_runs(monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- notebook example:.*?-->\s*```python\n(.*?)```", text, re.S).group(1)
    namespace: dict = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(block, "README.md (notebook example)", "exec"), namespace)
    table = namespace["table"]
    assert list(table.columns) == ["system_a", "system_b"] and len(table) == 7
    assert ((table >= 0) & (table <= 1)).all().all()
    corpus = namespace["frame"].query("scope == 'corpus' and metric == 'cov_n'").set_index("system")["value"]
    assert corpus["system_a"] == namespace["result"].systems["system_a"].corpus["cov_n"]
    assert isinstance(namespace["frame"], pd.DataFrame)
    assert "<table" in namespace["result"]._repr_html_()
