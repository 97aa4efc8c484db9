"""Warnings when the site does not show what the data holds about a device.

When the project generates device pages (``neuron_device_pages``), every device of the data must
have a page showing its specifications (a ``neuron:device-specs`` without ``:no-index:``, its
canonical place) and every device with a support matrix in the latest revision
(``Catalog.matrix_devices``) a page showing that matrix; and support prose (``support_text`` of
``families.yaml``) given for a device that no matrix lists is pointed out (its page says that none
is published). Each is a located warning of type ``neuron``,
subtype ``device-page``, at the record in the data file.

Which matrices a page shows is collected while it is read (:class:`MatrixCollector`, cleared and
merged per document like Sphinx's own collectors) and checked once every page is read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from docutils import nodes
from sphinx.environment.collectors import EnvironmentCollector
from sphinx.util import logging

from ..state.domain import dataset, neuron_domain
from ..render.placeholder import deferred
from ..node_data import MATRIX_DEVICES

if TYPE_CHECKING:
    from collections.abc import Iterable, Set

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from ..data import Catalog

logger = logging.getLogger(__name__)

ATTRIBUTE = "neuron_matrices_shown"


def _shown(env: BuildEnvironment) -> dict[str, set[str]]:
    """Docname -> the devices whose support matrix the page shows."""
    if not hasattr(env, ATTRIBUTE):
        setattr(env, ATTRIBUTE, {})
    return cast("dict[str, set[str]]", getattr(env, ATTRIBUTE))


def matrix_devices_in(doctree: nodes.Node, device_ids: Iterable[str]) -> set[str]:
    """The devices whose support matrix of the latest revision the doctree shows: every device of
    a matrix a support-matrix table renders (one matrix may serve several devices, such as Trainium
    and Inferentia2 on NeuronCore-v2)."""
    known = set(device_ids)
    found: set[str] = set()
    for table in doctree.findall(nodes.table):
        if "neuron-support-matrix" in table["classes"]:
            found.update(d for d in MATRIX_DEVICES.get_or(table, ()) if d in known)
    for placeholder in doctree.findall(deferred):  # a matrix rendered when the page is written
        found.update(d for d in MATRIX_DEVICES.get_or(placeholder, ()) if d in known)
    return found


class MatrixCollector(EnvironmentCollector):
    """Collects, per page, the devices whose support matrix it shows."""

    def clear_doc(self, app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        _shown(env).pop(docname, None)

    def merge_other(self, app: Sphinx, env: BuildEnvironment, docnames: Set[str], other: BuildEnvironment) -> None:
        for docname in docnames:
            if docname in _shown(other):
                _shown(env)[docname] = _shown(other)[docname]

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        found = matrix_devices_in(doctree, dataset(app.env).catalog.devices)
        if found:
            _shown(app.env)[app.env.docname] = found


def _warn(catalog: Catalog, collection: str, record_id: str, message: str, *args: object) -> None:
    file, line = catalog.origin(collection, record_id)
    logger.warning(message, *args, location=f"{catalog.data_dir / file}:{line or ''}", type="neuron",
                   subtype="device-page")


def check_devices(catalog: Catalog, described: Set[str], matrices_shown: Set[str]) -> None:
    """Warn about each device whose specifications or support matrix no page shows, and about
    support prose for a device that no matrix of the latest revision lists."""
    matrices = catalog.matrix_devices()
    for device_id in catalog.devices:
        if device_id not in described:
            _warn(catalog, "devices", device_id, "no page shows the specifications of device %r "
                  "(a neuron:device-specs directive without :no-index:)", device_id)
        if device_id in matrices and device_id not in matrices_shown:
            _warn(catalog, "devices", device_id, "a support matrix is published for device %r, but no page "
                  "shows it (a neuron:support-matrix directive)", device_id)
    for family in catalog.families.values():
        for device_id, prose in family.devices.items():
            if device_id in catalog.devices and device_id not in matrices and prose.support_text:
                _warn(catalog, "families", family.id, "family %r has support prose for device %r, but no support "
                      "matrix of the latest revision lists that device: its page says that none is published",
                      family.id, device_id)


def check_device_pages(app: Sphinx, env: BuildEnvironment) -> None:
    if not app.config.neuron_device_pages:
        return
    domain = neuron_domain(env)
    described = {name for (objtype, name) in domain.objects if objtype == "device"}
    shown = set().union(*_shown(env).values()) if _shown(env) else set()
    check_devices(dataset(env).catalog, described, shown)
