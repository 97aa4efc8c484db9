"""What a generated node carries is one module (``neuron_docs.node_data``): no other module of the
extension spells a node attribute's key, as a string or as a keyword argument of a node's constructor."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from docutils import nodes

from neuron_docs import node_data
from neuron_docs.node_data import CHANNELS, Channel

PACKAGE = Path(node_data.__file__).parent
OURS = re.compile(r"neuron_[a-z_]+")
#: Strings of ours that name no node attribute: config values (found in the code: ``add_config_value``)
#: and these, each with what it names.
NOT_NODE_ATTRIBUTES = {
    "neuron_version": "a field of a benchmark record",
    "neuron_matrices_shown": "an attribute of the build environment (site.device_checks)",
    "neuron_chart_colours": "a key of the dict a page's renderers share (RenderContext.page)",
    "neuron_chart_ids": "a key of env.temp_data", "neuron_anchors": "a key of env.temp_data",
    "neuron_noted": "a key of env.temp_data", "neuron_hosts": "a key of env.temp_data",
}


def _config_values(trees: dict[str, ast.Module]) -> set[str]:
    return {call.args[0].value for tree in trees.values() for call in ast.walk(tree)
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and call.func.attr == "add_config_value" and call.args and isinstance(call.args[0], ast.Constant)}


def raw_keys(package: Path = PACKAGE) -> list[str]:
    """Every place outside ``node_data.py`` that spells a key of ours a node attribute could have."""
    trees = {path.relative_to(package).as_posix(): ast.parse(path.read_text(encoding="utf-8"))
             for path in sorted(package.rglob("*.py")) if path.name != "node_data.py" or path.parent != package}
    allowed = _config_values(trees) | set(NOT_NODE_ATTRIBUTES)
    channels = {channel.key for channel in CHANNELS}
    found = []
    for name, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and OURS.fullmatch(node.value) \
                    and (node.value not in allowed or node.value in channels):
                found.append(f"{name}:{node.lineno}: {node.value!r}")
            elif isinstance(node, ast.keyword) and node.arg and OURS.fullmatch(node.arg):
                found.append(f"{name}:{node.lineno}: {node.arg}=")
    return found


def test_no_module_but_node_data_spells_a_node_attribute() -> None:
    assert raw_keys() == [], "use a Channel of neuron_docs.node_data"


@pytest.mark.parametrize("planted", ['table["neuron_csv"] = "x"', 'table.get("neuron_new_channel")',
                                     'nodes.table("", neuron_csv="x")', 'x = nodes.Element(neuron_new=1)'])
def test_a_raw_key_is_found(tmp_path: Path, planted: str) -> None:
    copy = tmp_path / "neuron_docs"
    (copy / "site").mkdir(parents=True)
    (copy / "site" / "planted.py").write_text(f"def f(table, nodes):\n    {planted}\n", encoding="utf-8")
    assert len(raw_keys(copy)) == 1


def test_every_channel_is_listed_once_under_a_key_of_its_own() -> None:
    defined = [value for value in vars(node_data).values() if isinstance(value, Channel)]
    assert {id(c) for c in defined} == {id(c) for c in CHANNELS}
    keys = [channel.key for channel in CHANNELS]
    assert len(keys) == len(set(keys))
    assert all(key.startswith("neuron_") for key in keys)


def test_a_channel_reads_what_it_wrote() -> None:
    table = nodes.table()
    assert node_data.CSV_NAME.get(table) is None and not node_data.CSV_NAME.on(table)
    assert node_data.MATRIX_DEVICES.get_or(table, ()) == ()
    node_data.CSV_NAME.set(table, "specs")
    assert node_data.CSV_NAME.on(table) and node_data.CSV_NAME.read(table) == "specs" == table["neuron_csv"]
    assert node_data.CSV_NAME.pop(table, None) == "specs" and not node_data.CSV_NAME.on(table)
    assert nodes.table(**node_data.HOSTED.attribute("changes"))["neuron_hosted"] == "changes"
