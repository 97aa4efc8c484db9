"""The extension's event handlers, in one place and in the order a build runs them.

:data:`HANDLERS` is the table: one :class:`Handler` per event handler, grouped by the build's phase
(the Sphinx event) in the order Sphinx emits them, and within a phase by priority (a smaller number
runs first; Sphinx's default is 500). Handlers of one phase and priority run in the order of the
table: Sphinx keeps the order in which they are connected, and :func:`connect_handlers` connects the
rows in order. Each row says why its priority is what it is, when it is not the default.

Two kinds of registration stay with their features, as ``app.add_directive`` does: the renderers of
generated content (:func:`.render.placeholder.add_renderers`) and the object types pages make when
written (:func:`.state.hosted.add_hosted_type`) are given to each build on ``builder-inited`` at
priority 400, before the data set is loaded (500). The collector of the matrices a device page shows
(:class:`.site.device_checks.MatrixCollector`) is connected here method by method, in the places
``app.add_env_collector`` gave it, so that the table holds every handler of the extension.

``tests/test_lifecycle.py`` checks that the handlers Sphinx runs are this table's, in its order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .checks import drift, price_age
from .directives import advisor, benchmark_history, fit
from .preview import build as preview
from .render import assets, expand
from .site import (advisor_blocks, chart_files, compiled_templates, data_dates, device_checks, device_pages, epub,
                   front_matter, html_only, ids, latex_labels, latex_tables, navigation, performance_pages,
                   revision_pages, search_index, single_page, sitemap, tooltips)
from .site.downloads import csv_index, data_download, history_csv, links, table_files
from .state import build_lock, dependencies, domain, hosted, loading

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.application import Sphinx

#: Sphinx's events the extension handles, in the order a build emits them (``missing-reference``
#: while a page's references are resolved, before its ``doctree-resolved``).
PHASES = ("config-inited", "builder-inited", "env-get-outdated", "env-purge-doc", "env-before-read-docs",
          "doctree-read", "env-merge-info", "env-updated", "env-get-updated", "env-check-consistency",
          "write-started", "missing-reference", "doctree-resolved", "html-page-context", "html-collect-pages",
          "build-finished")
DEFAULT = 500


@dataclass(frozen=True)
class Handler:
    """One event handler: the phase (Sphinx event) it runs in, its priority and why, when not the default."""

    phase: str
    handler: Callable[..., Any]
    priority: int = DEFAULT
    why: str = ""


#: The collector of the matrices each page shows, connected method by method below. It keeps nothing of
#: a build (what it collects is the environment's), so one serves every build of the process.
COLLECTOR = device_checks.MatrixCollector()
#: The reasons of the priorities that recur.
LOADED = "after the data set is loaded"
SPLIT = "before wide tables are split and ids labelled"

#: Every handler of the extension, in build order: phase, handler, and a priority that is not the default
#: with why.
HANDLERS: tuple[Handler, ...] = (
    # The configuration is read.
    Handler("config-inited", build_lock.take_build_lock, 0, "before the environment is read"),
    Handler("config-inited", loading.data_dir_absolute),
    Handler("config-inited", preview.default_preview_base),
    Handler("config-inited", device_pages.exclude_device_prose),
    Handler("config-inited", performance_pages.exclude_performance_prose),
    # The builder is made: the data set is loaded (500), then what is made from it (600).
    Handler("builder-inited", sitemap.sitemap_without_a_server_process, 100, "before sphinx-sitemap's"),
    Handler("builder-inited", compiled_templates.share_compiled_templates),
    Handler("builder-inited", loading.load_data),
    Handler("builder-inited", expand.choose_expansion),
    Handler("builder-inited", advisor.add_advisor_static_path),
    Handler("builder-inited", benchmark_history.add_history_script),
    Handler("builder-inited", preview.add_preview_css),
    Handler("builder-inited", epub.close_tab_inputs),
    Handler("builder-inited", assets.add_assets),
    Handler("builder-inited", search_index.note_indexed_pages),
    Handler("builder-inited", fit.warn_misfits, 600, LOADED),
    Handler("builder-inited", preview.make_preview, 600, LOADED),
    Handler("builder-inited", device_pages.generate_device_pages, 600, LOADED),
    Handler("builder-inited", performance_pages.generate_performance_pages, 600, LOADED),
    Handler("builder-inited", revision_pages.generate_revision_pages, 600, LOADED),
    Handler("builder-inited", price_age.warn_stale_prices, 600, LOADED),
    # Which pages are read again.
    Handler("env-get-outdated", dependencies.pages_to_read_again),
    Handler("env-get-outdated", domain.co_describers),
    Handler("env-get-outdated", preview.preview_reads_every_page),
    Handler("env-get-outdated", COLLECTOR.get_outdated_docs),
    Handler("env-get-outdated", navigation.note_navigation_change),
    Handler("env-purge-doc", COLLECTOR.clear_doc),
    Handler("env-before-read-docs", dependencies.note_pages_read),
    Handler("env-before-read-docs", navigation.note_titles_before),
    Handler("env-before-read-docs", drift.make_drift_indexes),
    # Each page is read.
    Handler("doctree-read", ids.unique_ids, 400, "before Sphinx's collectors: the table of contents links to "
            "sections by id"),
    Handler("doctree-read", hosted.note_hosts),
    Handler("doctree-read", COLLECTOR.process_doc),
    Handler("doctree-read", drift.note_checked_prose),
    Handler("env-merge-info", COLLECTOR.merge_other),
    # Every page is read: which pages are written again.
    Handler("env-updated", hosted.settle_hosts, 400),
    Handler("env-updated", dependencies.pages_to_write_again),
    Handler("env-updated", domain.pages_of_settled_objects),
    Handler("env-updated", domain.settle_alias_labels_of_pages),
    Handler("env-updated", data_dates.pages_of_a_moved_date),
    Handler("env-updated", navigation.pages_of_a_navigation_change),
    Handler("env-get-updated", COLLECTOR.get_updated_docs),
    Handler("env-check-consistency", device_checks.check_device_pages),
    Handler("env-check-consistency", drift.check_data_text),
    # The pages are written.
    Handler("write-started", expand.start_writing),
    Handler("missing-reference", domain.unlinked_generated_reference),
    Handler("doctree-resolved", ids.unique_ids_of_filled_page, 300, "once generated content is in the page; before "
            "the CSV downloads and the preview marks, which read ids"),
    Handler("doctree-resolved", csv_index.fill_index, 390, "before the tables' CSVs are written"),
    Handler("doctree-resolved", table_files.write_table_csvs, 400, "before the preview marks: the CSVs hold "
            "the data, not 'changed in this preview'"),
    Handler("doctree-resolved", html_only.html_as_nodes, 400, "after the ids, before the charts become files, "
            "wide tables are split and ids labelled"),
    Handler("doctree-resolved", advisor.fill_advisor),
    Handler("doctree-resolved", preview.mark_preview_changes),
    Handler("doctree-resolved", links.resolve_download_links),
    Handler("doctree-resolved", chart_files.chart_files),
    Handler("doctree-resolved", data_dates.fill_data_dates),
    Handler("doctree-resolved", advisor_blocks.advisor_as_blocks, 600, SPLIT),
    Handler("doctree-resolved", front_matter.cards_as_lists, 600),
    Handler("doctree-resolved", front_matter.toctree_parts, 600),
    Handler("doctree-resolved", tooltips.drop_tooltips, 700),
    Handler("doctree-resolved", latex_tables.split_wide_tables, 750, "before the labels of ids: the rows' ids "
            "stay on the first part"),
    Handler("doctree-resolved", latex_labels.label_every_id, 800, "after the page's ids are made unique (300)"),
    Handler("doctree-resolved", single_page.fix_double_anchors, 900),
    Handler("html-page-context", navigation.navigation_once_per_folder, 400, "before the theme asks for the "
            "navigation (500)"),
    Handler("html-page-context", advisor.advisor_script),
    Handler("html-page-context", assets.captions_as_headings, 900, "after the theme's own (500)"),
    Handler("html-collect-pages", benchmark_history.collect_model_pages),
    Handler("html-collect-pages", preview.collect_changes_page),
    Handler("html-collect-pages", search_index.restore_entries),
    # The build is over.
    Handler("build-finished", sitemap.sitemap_every_page, 400, "before sphinx-sitemap's (500)"),
    Handler("build-finished", expand.end_writing),
    Handler("build-finished", table_files.forget_written),
    Handler("build-finished", data_download.write_data_files),
    Handler("build-finished", history_csv.write_history_csv),
    Handler("build-finished", device_pages.remove_stale_output),
    Handler("build-finished", build_lock.release_build_lock, 10_000, "after every other handler (the downloads, "
            "the sitemap) has written"),
    Handler("build-finished", loading.thaw, 10_000, "after every other handler: the downloads read the data set"),
)


def connect_handlers(app: Sphinx) -> None:
    """Connect every handler of :data:`HANDLERS`, in its order."""
    for row in HANDLERS:
        app.connect(row.phase, row.handler, priority=row.priority)
