"""The advisor's static table outside the web builders (neuron_docs.site.advisor_blocks), from its model.

Made from a :class:`~neuron_docs.render.table_model.TableModel` built in the test (no catalog, no
Sphinx): a block per family in the model's order, its devices ranked by fit (good, with limitations,
not a good fit, none), each row's ids on its item, the best figures said under it and the unanswered
ones gathered in one line; the model's nodes go into the blocks, the model is left as it was when
copied first. The real site's LaTeX has them too (``tests/test_builders.py``, ``make test-e2e``).
"""

from __future__ import annotations

from docutils import nodes

from neuron_docs.data.records.labels import FIT_TEXT
from neuron_docs.directives.advisor import HEADERS, NO_MATRIX, NOT_MEASURED
from neuron_docs.render.table_model import TableCell, TableModel, text
from neuron_docs.site.advisor_blocks import compact_blocks


def _fit(key: str | None) -> TableCell:
    if key is None:
        return text(NO_MATRIX)
    words = FIT_TEXT[key]
    return TableCell([nodes.strong(words, words), nodes.Text(f": because {key}")], words)


def _row(family: str, device: str, fit: str | None, best: str = NOT_MEASURED) -> list[TableCell]:
    return [TableCell(nodes.emphasis(family, family), family), text(device), _fit(fit), text("PyTorch: Supported"),
            text("None known"), text(best), text(NOT_MEASURED), text(NOT_MEASURED), text("Not applicable")]


def _model() -> TableModel:
    model = TableModel(HEADERS, name="advisor-all-families")
    model.add(_row("Encoders", "Inferentia", "poor"), "advisor-encoder-inferentia")
    model.add(_row("Encoders", "Trainium", None), "advisor-encoder-trainium")
    model.add(_row("Encoders", "Inferentia2", "good", "BERT: 100 inferences/s"), "advisor-encoder-inferentia2")
    model.add(_row("Encoders", "Trainium2", "limited"), "advisor-encoder-trainium2 other-id")
    model.add(_row("Decoders", "Trainium", "good"), "advisor-decoder-trainium")
    return model


def test_a_block_per_family_in_the_models_order_devices_ranked_by_fit() -> None:
    blocks = compact_blocks(_model(), ["advisor-all-families"])
    assert isinstance(blocks[0], nodes.target) and blocks[0]["ids"] == ["advisor-all-families"]
    families = [b for b in blocks if isinstance(b, nodes.container)]
    assert [next(iter(b.findall(nodes.strong))).astext() for b in families] == ["Encoders", "Decoders"]
    assert next(iter(families[0].findall(nodes.emphasis))).astext() == "Encoders"  # the cell's nodes, not its words
    items = [item for item in families[0].children[1].children if isinstance(item, nodes.list_item)]
    headings = [item.children[0].astext() for item in items]
    assert [h.split(":")[0] for h in headings] == ["Inferentia2", "Trainium2", "Inferentia", "Trainium"]
    assert headings[0] == "Inferentia2: Good Fit: because good"
    assert [item["ids"] for item in items] == [["advisor-encoder-inferentia2"], ["advisor-encoder-trainium2", "other-id"],
                                              ["advisor-encoder-inferentia"], ["advisor-encoder-trainium"]]


def test_the_best_figures_are_said_and_the_unanswered_gathered_in_one_line() -> None:
    blocks = [b for b in compact_blocks(_model()) if isinstance(b, nodes.container)]
    assert not any(isinstance(b, nodes.target) for b in compact_blocks(_model()))  # no ids given: no target
    good = next(item for item in blocks[0].findall(nodes.list_item) if item["ids"] == ["advisor-encoder-inferentia2"])
    lines = [item.astext() for item in good.children[1].children]
    assert lines[:3] == ["Support: PyTorch: Supported", "Known issues and roadmap: None known",
                         "Best inference throughput: BERT: 100 inferences/s"]
    assert lines[3] == ("No figure: best inference latency (none measured), lowest inference cost (none measured), "
                        "best training throughput (not applicable)")
    assert len(lines) == 4


def test_a_copied_model_keeps_its_nodes_when_its_table_and_blocks_take_theirs() -> None:
    model = _model()
    kept = model.copy()
    model.table()
    compact_blocks(kept)
    first = model.copy().rows[0][0].page
    assert isinstance(first, nodes.emphasis) and first.parent is None  # a copy's nodes have no place yet
    assert [[c.csv for c in row] for row in kept.rows] == [[c.csv for c in row] for row in model.rows]
    assert kept.row_ids == model.row_ids and kept.row_ids is not model.row_ids
    again = compact_blocks(model.copy())
    assert [b.astext() for b in again] == [b.astext() for b in compact_blocks(_model())]
