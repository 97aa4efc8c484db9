"""The directives and roles that render data, one module per family of directives.

- :mod:`.base` and :mod:`.tables`: what every directive shares (located warnings, object
  registration; docutils tables, badges, data-problem notices);
- :mod:`.matrix` (with :mod:`.matrix_table`), :mod:`.guidelines`, :mod:`.whats_new`: the support
  matrices of any revision, the family guidelines, what each revision changed;
- :mod:`.specs`: devices, instances, frameworks and sources; :mod:`.benchmarks`: benchmark runs,
  costs, accuracy, compilation status; :mod:`.training`: issues, roadmap, the training experiment;
- :mod:`.errata`: the source documents' claims the data corrects; :mod:`.roles`: the value, fit and
  status roles; :mod:`.charts`: the charts (model, SVG and directive apart);
- :mod:`.performance`, :mod:`.measured`: the published benchmark tables and a family's measured models;
  :mod:`.benchmark_history`: their figures across releases and what each published state changed;
- :mod:`.advisor`: which device for a model, the static table and the data of the interactive advisor.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import advisor, benchmark_history, benchmarks, errata, guidelines, matrix, performance, roles, specs, training, whats_new
from .charts import directive as charts

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def setup_directives(app: Sphinx) -> None:
    roles.setup_roles(app)
    matrix.setup_matrix(app)
    whats_new.setup_whats_new(app)
    guidelines.setup_guidelines(app)
    specs.setup_specs(app)
    benchmarks.setup_benchmarks(app)
    training.setup_training(app)
    charts.setup_charts(app)
    errata.setup_errata(app)
    performance.setup_performance(app)
    advisor.setup_advisor(app)
    benchmark_history.setup_benchmark_history(app)
