"""Objects whose places a page makes from the data when it is written, registered once every page
has been read.

What's new has a section per published benchmark state, and a generation's history page a block
per configuration. Made when the page is read, every new state or configuration (each release
brings some) would have the page read again. Instead the directive leaves one placeholder and
notes its page as the *host* of an object type, for one scope (a generation; :func:`note_host`).
Once every page has been read (``env-updated``), :func:`settle_hosted_objects` makes from the data,
for every host: the ``neuron`` domain's objects of that type (cross-references, ``objects.inv``,
search), their standard labels, their general-index entries and, for objects that are sections,
the host's table-of-contents entries under the placeholder's section. When the page is written,
the placeholder renders the places from the same :class:`HostedPlace` list (:func:`places`), with the
same titles and anchors. A new release then re-reads no page: it rewrites the hosts, which show
the data, and the pages whose toctree lists them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from docutils import nodes
from sphinx import addnodes

from .domain import dataset, index_entry, neuron_domain, state, warn_duplicate
from ..node_data import HOSTED

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from ..data import Catalog


@dataclass(frozen=True)
class HostedPlace:
    """One hosted object: its id, its anchor, its place's title (a section's, in the table of
    contents) and its title as an object (the index's, ``objects.inv``'s; default: the same)."""

    name: str
    anchor: str
    title: str
    object_title: str = ""

    @property
    def named(self) -> str:
        """Its title as an object."""
        return self.object_title or self.title


@dataclass(frozen=True)
class HostedType:
    """An object type whose places hosts make when written: its places in a scope, from the data,
    and whether each place is a section (with a table-of-contents entry). Its objects are all made
    here: no directive registers one when its page is read."""

    objtype: str
    places: Callable[[Catalog, str], list[HostedPlace]]
    sections: bool


def add_hosted_type(app: Sphinx, hosted: HostedType) -> None:
    """Give ``hosted`` to the builds of ``app`` (as renderers are: when the builder is made)."""
    def give(app: Sphinx) -> None:
        state(app.env).hosted[hosted.objtype] = hosted
    app.connect("builder-inited", give, priority=400)


def places(env: BuildEnvironment, objtype: str, scope: str = "") -> list[HostedPlace]:
    """The places of ``objtype`` in ``scope`` in this build's data, in the order a host shows them."""
    hosted = cast("HostedType", state(env).hosted[objtype])
    return hosted.places(dataset(env).catalog, scope)


def note_host(env: BuildEnvironment, placeholder: nodes.Element, objtype: str, scope: str = "",
              indexed: bool = True) -> None:
    """The page being read hosts the places of ``objtype`` in ``scope`` where ``placeholder`` is
    (``indexed``: they are the objects' canonical places, not ``:no-index:`` copies). Its section is
    found once the page is read (:func:`note_hosts`)."""
    pending = cast("list[tuple[nodes.Element, str, str, bool]]", env.temp_data.setdefault("neuron_hosts", []))
    pending.append((placeholder, objtype, scope, indexed))


def placed_here(env: BuildEnvironment, objtype: str, docname: str) -> set[str]:
    """The names of the objects of ``objtype`` whose canonical place is page ``docname``: a host not
    marked ``:no-index:`` and not another host's duplicate (:func:`settle_hosted_objects`)."""
    objects = neuron_domain(env).data.get("objects", {})
    return {name for (kind, name), entry in objects.items() if kind == objtype and entry.docname == docname}


def hosts(env: BuildEnvironment) -> dict[str, list[list[Any]]]:
    """Docname -> [objtype, scope, toc anchor of the section holding the placeholder, indexed], per host."""
    return neuron_domain(env).data.setdefault("hosts", {})


def _toc_anchor(doctree: nodes.document, node: nodes.Element) -> str | None:
    """The ``anchorname`` of the table-of-contents entry of the section around ``node`` (Sphinx
    gives the page's first section ``""``); ``None`` outside any section."""
    parent = node.parent
    while parent is not None and not isinstance(parent, nodes.section):
        parent = parent.parent
    if not isinstance(parent, nodes.section) or not parent["ids"]:
        return None
    return "" if doctree.next_node(nodes.section) is parent else f"#{parent['ids'][0]}"


def note_hosts(app: Sphinx, doctree: nodes.document) -> None:
    pending = cast("list[tuple[nodes.Element, str, str, bool]]", app.env.temp_data.pop("neuron_hosts", []))
    if pending:
        hosts(app.env)[app.env.docname] = [[objtype, scope, _toc_anchor(doctree, node), indexed]
                                          for node, objtype, scope, indexed in pending]


def settle_hosted_objects(env: BuildEnvironment) -> None:
    """Make, from this build's data, every host's objects, labels, index entries and table-of-contents
    entries, replacing those the last build made (pages not read again keep what they had)."""
    registry = neuron_domain(env)
    known = state(env).hosted
    made = registry.data.setdefault("hosted_made", {"labels": {}, "index": {}, "toc": []})
    std = env.domains.standard_domain
    for label, docname in made["labels"].items():
        if std.anonlabels.get(label, (None,))[0] == docname:
            std.anonlabels.pop(label, None)
            std.labels.pop(label, None)
    index = env.domains.index_domain.entries
    for docname, entries in made["index"].items():
        if docname in index:
            ours = {tuple(e) for e in entries}
            index[docname] = [e for e in index[docname] if tuple(e) not in ours]
    for docname in made["toc"]:
        if docname in env.tocs:
            _forget_toc_entries(env, docname)
    made["labels"], made["index"], made["toc"] = {}, {}, []
    for objtype in known:
        registry.forget_objects(objtype)
    placed: dict[tuple[str, str], str] = {}
    for docname, noted in sorted(hosts(env).items()):
        if docname not in env.all_docs:
            continue
        for objtype, scope, toc_anchor, indexed in noted:
            hosted = known.get(objtype)
            if hosted is None:
                continue
            found = hosted.places(dataset(env).catalog, scope)
            sections = hosted.sections and toc_anchor is not None
            if sections and _add_toc_entries(env, docname, toc_anchor, objtype, found):
                made["toc"].append(docname)
            if not indexed:
                continue
            elsewhere: dict[str, list[str]] = {}  # the page that already has them -> names
            for place in found:
                first = placed.setdefault((objtype, place.name), docname)
                if first != docname:
                    elsewhere.setdefault(first, []).append(place.name)
                    continue
                if registry.note_object_from_data(objtype, place.name, place.named, place.anchor, docname):
                    made["labels"][place.anchor] = docname
                entry = index_entry(objtype, place.named, place.anchor)["entries"][0]
                index.setdefault(docname, []).append(entry)
                made["index"].setdefault(docname, []).append(list(entry))
            for first, names in elsewhere.items():
                if not {first, docname} & state(env).pages_read:
                    continue  # said when one of the two pages was read, as Sphinx says a duplicate
                warn_duplicate(objtype, names[0], first, (docname, None), more=len(names) - 1)


def _forget_toc_entries(env: BuildEnvironment, docname: str) -> None:
    for node in [n for n in env.tocs[docname].findall(nodes.Element) if HOSTED.get(n)]:
        if node.parent is not None:
            node.parent.remove(node)
    _count_toc_entries(env, docname)


def _add_toc_entries(env: BuildEnvironment, docname: str, toc_anchor: str, objtype: str,
                     found: list[HostedPlace]) -> bool:
    """Entries for ``found`` at the start of the entries under the section whose entry is ``toc_anchor``
    (where the placeholder's sections are: before any hand-written subsection), as Sphinx makes them;
    whether there were any to add."""
    toc = env.tocs.get(docname)
    if toc is None or not found:
        return False
    holder = next((ref.parent.parent for ref in toc.findall(nodes.reference)
                   if ref.get("anchorname") == toc_anchor and isinstance(ref.parent.parent, nodes.list_item)), None)
    if holder is None:
        return False
    items = [nodes.list_item("", addnodes.compact_paragraph("", "", nodes.reference(
        "", "", nodes.Text(place.title), internal=True, refuri=docname, anchorname=f"#{place.anchor}")),
        **HOSTED.attribute(objtype)) for place in found]
    below = next((child for child in holder.children if isinstance(child, nodes.bullet_list)), None)
    if below is None:
        holder += nodes.bullet_list("", *items, **HOSTED.attribute(objtype))
    else:
        below[0:0] = items
    _count_toc_entries(env, docname)
    return True


def _count_toc_entries(env: BuildEnvironment, docname: str) -> None:
    env.toc_num_entries[docname] = sum(1 for ref in env.tocs[docname].findall(nodes.reference)
                                       if "anchorname" in ref)


def settle_hosts(app: Sphinx, env: BuildEnvironment) -> list[str]:
    settle_hosted_objects(env)
    return []
