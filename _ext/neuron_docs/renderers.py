"""Every renderer of generated content, in one table: the one way a build knows them.

A directive or role leaves a placeholder naming a renderer (:func:`.render.placeholder.defer`); when
the page is written, :func:`.render.placeholder.render` calls the renderer of that name from the
build's state. The renderers are defined where their directives are (``directives/``, and the
site's own pages in ``site/``), above ``render/``, which must not import them: the call runs up the
layers through this table, which the extension's :func:`~neuron_docs.setup` gives to each build
(:func:`.render.placeholder.add_renderers`). This module is the top layer of the import-linter
contract ``wings`` (``pyproject.toml``): nothing below imports it.

``tests/test_renderer_table.py`` checks that every renderer defined in the extension is in the table
under a name of its own, and that every placeholder a build leaves names one of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .directives import (advisor, base, benchmark_history, errata, fit, guidelines, matrix, published_by_family,
                         published_tables, roles, seed_runs, specs, training, whats_new)
from .directives.charts import directive as charts
from .render.placeholder import add_renderers
from .site import device_overview
from .site.downloads import data_download

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from .render.placeholder import Renderer

#: Every renderer of the extension (its name is :attr:`.Renderer.name`), grouped by the module that
#: defines it.
RENDERERS: tuple[Renderer[Any], ...] = (
    base.render_broken_notice,
    roles.render_data_role,
    matrix.render_support_matrix, matrix.render_missing, matrix.render_matrix_view, matrix.render_about,
    whats_new.render_matrix_changes, whats_new.render_benchmark_changes,
    guidelines.render_family_intro, guidelines.render_family_device,
    specs.render_device_specs, specs.render_instance_table, specs.render_framework_table, specs.render_source_table,
    seed_runs.render_benchmark_table, seed_runs.render_cost_table, seed_runs.render_accuracy_table,
    seed_runs.render_environment_table, seed_runs.render_model_status,
    training.render_known_issue, training.render_roadmap_items, training.render_comparison_table,
    training.render_training_experiment,
    charts.render_chart,
    errata.render_errata,
    published_tables.render_performance_table, published_by_family.render_measured_models,
    advisor.render_advisor,
    benchmark_history.render_history,
    fit.render_fit_table, fit.render_fit_check,
    device_overview.render_device_table, device_overview.render_device_frameworks,
    device_overview.render_device_best,
    data_download.render_data_downloads,
)


def setup_renderers(app: Sphinx) -> None:
    """Give every renderer of :data:`RENDERERS` to the builds of ``app``."""
    add_renderers(app, *RENDERERS)
