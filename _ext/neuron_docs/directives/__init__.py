"""The directives and roles that render data, one module per family of directives.

- :mod:`.base` and :mod:`.tables`: what every directive shares (located warnings, object
  registration; docutils tables, badges, data-problem notices);
- :mod:`.matrix` (with :mod:`.matrix_table`), :mod:`.guidelines`, :mod:`.whats_new`: the support
  matrices of any revision, the family guidelines, what each revision changed;
- :mod:`.specs`: devices, instances, frameworks and sources; :mod:`.seed_runs`: the seed analysis's
  own runs (``data/benchmarks/``): inference, costs, accuracy, compilation status; :mod:`.training`:
  issues, roadmap, the training experiment;
- :mod:`.errata`: the source documents' claims the data corrects; :mod:`.roles`: the value, fit and
  status roles; :mod:`.charts`: the charts (model, SVG and directive apart);
- :mod:`.published_tables` (cells in :mod:`.published_cells`), :mod:`.published_by_family`: the
  published benchmark runs (``data/benchmarks/published/``), as the published tables and by model family;
- :mod:`.benchmark_history`: the published benchmark figures across releases and what each published
  state changed;
- :mod:`.advisor`: which device for a model, the static table and the data of the interactive advisor;
  :mod:`.fit`: how large a model each NeuronCore count holds, and that estimate checked against every run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import (advisor, benchmark_history, errata, fit, guidelines, matrix, published_tables, roles, seed_runs, specs,
               training, whats_new)
from .charts import directive as charts

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def setup_directives(app: Sphinx) -> None:
    roles.setup_roles(app)
    matrix.setup_matrix(app)
    whats_new.setup_whats_new(app)
    guidelines.setup_guidelines(app)
    specs.setup_specs(app)
    seed_runs.setup_seed_runs(app)
    training.setup_training(app)
    charts.setup_charts(app)
    errata.setup_errata(app)
    published_tables.setup_published_tables(app)
    advisor.setup_advisor(app)
    benchmark_history.setup_benchmark_history(app)
    fit.setup_fit(app)
