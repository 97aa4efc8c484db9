"""The data set's place in the build: where the data is (``neuron_data_dir``, ``neuron_cache_dir``)
and its loading on ``builder-inited``, before any page is read.

The data set is loaded (from the cache when its files did not change) into the build's state
(:class:`~.build.BuildState`), and every problem of the data becomes a located warning, one per
cause (:func:`~.build.one_warning_per_cause`): ``neuron.data`` for what is set aside,
``neuron.matrix`` for what a writer should fix.

Once loaded, the data set (and whatever else lives from the start of the build) is frozen for the
garbage collector (:func:`gc.freeze`): it is read-only and lives to the end of the build, so the
collector's full passes need not walk its hundreds of thousands of objects again (at 5,000
families a quarter of a second of a cold build). :func:`thaw` gives them back at the end, so a
process that builds again (a test suite, a preview) collects them as before.
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import TYPE_CHECKING

from sphinx.util import logging

from ..data.dataset import load_cached
from .build import one_warning_per_cause
from .domain import state

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

logger = logging.getLogger(__name__)


def data_dir_absolute(app: Sphinx, config: Config) -> None:
    """Make ``neuron_data_dir`` absolute (it is given relative to the configuration directory)."""
    config.neuron_data_dir = str((Path(app.confdir) / config.neuron_data_dir).resolve())


def load_data(app: Sphinx) -> None:
    """Load the data set into the build's state and warn of its problems, one warning per cause."""
    build = state(app.env)
    build.builder = app.builder
    setting = app.config.neuron_cache_dir
    cache_dir = (Path(app.confdir) / setting).resolve() if setting else None
    data = build.loaded = load_cached(build.data_dir, cache_dir)
    causes, affected = one_warning_per_cause(data.catalog.errors, data.catalog.broken)
    for error in causes:
        # Always "path:line" (or "path:" for a whole-file problem): a location without a colon would be
        # taken for a document name.
        location = f"{build.data_dir / error.file}:{error.line or ''}"
        message = f"{error.field}: {error.message}" if error.field else error.message
        logger.warning("%s%s", message, affected.get(error, ""), location=location, type="neuron", subtype="data")
    for warning in data.catalog.warnings:
        location = f"{build.data_dir / warning.file}:{warning.line or ''}"
        logger.warning("%s: %s", warning.field, warning.message, location=location, type="neuron", subtype="matrix")
    gc.freeze()


def thaw(app: Sphinx, exception: BaseException | None) -> None:
    """What :func:`load_data` froze is the garbage collector's again."""
    gc.unfreeze()


def setup_loading(app: Sphinx) -> None:
    app.add_config_value("neuron_data_dir", "data", "env", types=frozenset({str}),
                         description="Directory of the data files, relative to the configuration directory.")
    app.add_config_value("neuron_cache_dir", ".neuron-cache", "", types=frozenset({str}),
                         description="Where the loaded data is kept between builds, relative to the configuration "
                                     "directory; empty: no cache.")
