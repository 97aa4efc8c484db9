"""The price-age check: a price older than ``neuron_price_max_age_days`` is a located warning.

Age is measured against the newest as-of date of the data set's own prices
(:func:`~neuron_docs.data.figures.prices.stale_prices`), never against the clock, so a build of the same
data gives the same warnings on any day. ``0`` turns the check off.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sphinx.util import logging

from ..state.domain import dataset, state
from ..data.figures.prices import stale_prices

if TYPE_CHECKING:
    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)


def warn_stale_prices(app: Sphinx) -> None:
    data_dir = state(app.env).data_dir
    for error in stale_prices(dataset(app.env).catalog, app.config.neuron_price_max_age_days):
        logger.warning("%s: %s", error.field, error.message, location=f"{data_dir / error.file}:{error.line or ''}",
                       type="neuron", subtype="price_age")


def setup_price_age(app: Sphinx) -> None:
    app.add_config_value("neuron_price_max_age_days", 1461, "env", types=frozenset({int}),
                         description="Largest age of a price, in days before the newest as-of date of the data "
                                     "set's prices, before it is a warning; 0: no check.")
