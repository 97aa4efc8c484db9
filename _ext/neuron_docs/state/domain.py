"""The ``neuron`` domain: devices, instances, frameworks, model families and more as objects.

Directives that render an object's canonical place (a family's guideline section, a device's
specification table, an instance's row) call :meth:`NeuronDomain.note_object`; roles such as
``:neuron:family:`encoder``` resolve to it, entries go to the index and to ``objects.inv``, and
the search finds them by name; each object's anchor is a standard label too (``:ref:`device-trainium```,
for sites that link here with intersphinx alone). Per-document state is cleared and merged for
parallel builds.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, cast

from docutils import nodes
from sphinx import addnodes
from sphinx.domains import Domain, ObjType
from sphinx.roles import XRefRole
from sphinx.util import logging
from sphinx.util.nodes import make_refnode

from .build import BuildState
from ..data.checking.touching import set_aside
from ..data.records.labels import FAMILY_SYNONYMS
from ..node_data import GENERATED_REFERENCE, OBJECT_ANCHOR, SET_ASIDE, TABLE_NAME_ID

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Set

    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.environment import BuildEnvironment

    from ..data.dataset import DataSet

logger = logging.getLogger(__name__)

#: Object type -> (label, catalog collection the ids come from).
OBJECT_TYPES: dict[str, tuple[str, str]] = {
    "device": ("device", "devices"),
    "instance": ("instance type", "instances"),
    "framework": ("framework", "frameworks"),
    "family": ("model family", "families"),
    "model": ("model", "models"),
    "issue": ("known issue", "known_issues"),
    "roadmap": ("roadmap item", "roadmap"),
    "representative": ("representative model", "families"),
    "revision": ("support matrix revision", "revisions"),
    #: A section of What's new: a revision of the support matrices, or a Neuron release of the benchmarks.
    "changes": ("what's new section", "revisions"),
    "benchmark": ("published benchmark configuration", "benchmark_configurations"),
}


#: Objects whose canonical place only HTML builders write (a configuration's block on its history
#: page is HTML from a template): other builders have no target for a link to one.
HTML_ONLY_PLACES = frozenset({"benchmark"})


class ObjectEntry(NamedTuple):
    docname: str
    anchor: str
    title: str
    objtype: str


def anchor_for(objtype: str, name: str) -> str:
    """The HTML id of an object's canonical place, e.g. ``family-encoder``."""
    return nodes.make_id(f"{objtype}-{name}")


class NeuronDomain(Domain):
    """Cross-references to the objects of the Neuron data set."""

    name = "neuron"
    label = "Neuron"
    object_types = {name: ObjType(label, name) for name, (label, _) in OBJECT_TYPES.items()}
    roles = {name: XRefRole() for name in OBJECT_TYPES}
    initial_data: ClassVar[dict[str, Any]] = {"objects": {}, "aliases": {}, "alias_labels": {},
                                              "reads": {}, "shows": {}, "hosts": {}}
    data_version = 5

    def __init__(self, env: BuildEnvironment) -> None:
        super().__init__(env)
        self._build: BuildState | None = None
        #: Directive classes that mark their output as data, by directive name.
        self._data_adapters: dict[str, type] = {}
        #: The places, before this build read them, of the objects that pages described twice
        #: (:func:`co_describers`); a page that links to one is written again if it moved.
        self.settling: dict[tuple[str, str], str | None] = {}

    @property
    def build(self) -> BuildState:
        """What this build computes once (its data set, drift engine, preview): one per build (the
        domain instance is made afresh for each), never pickled (it is not in ``self.data``)."""
        if self._build is None:
            self._build = BuildState(Path(self.env.config.neuron_data_dir))
        return self._build

    @property
    def objects(self) -> dict[tuple[str, str], ObjectEntry]:
        return self.data.setdefault("objects", {})

    @property
    def aliases(self) -> dict[str, tuple[str, str, str]]:
        """Search-only names (e.g. a representative model) -> (docname, anchor, objtype)."""
        return self.data.setdefault("aliases", {})

    def note_object(self, objtype: str, name: str, title: str, anchor: str, location: Any = None) -> str:
        """Record the canonical place of an object; return the anchor it gets on this page.

        That is ``anchor`` unless another object of this page already has it (``inf2.xlarge`` and
        ``inf2-xlarge`` both make ``instance-inf2-xlarge``): then ``anchor-2``, ``anchor-3``...
        Directives use the returned anchor; :mod:`.site.ids` moves an element that kept ``anchor``.
        """
        key = (objtype, name)
        docname = self.env.docname
        self.described.setdefault(docname, set()).add(key)
        mine = self.objects.get(key)
        if mine is not None and mine.docname != docname:
            warn_duplicate(objtype, name, mine.docname, location)
        claimed = cast("dict[str, tuple[str, str]]", self.env.temp_data.setdefault("neuron_anchors", {}))
        given, number = anchor, 1
        while claimed.get(given, key) != key:
            number += 1
            given = f"{anchor}-{number}"
        claimed[given] = key
        cast("list[tuple[str, str]]", self.env.temp_data.setdefault("neuron_noted", [])).append((anchor, given))
        # Of two pages describing it, the first by name keeps it, as when a parallel build merges them
        # (:meth:`merge_domaindata`): the same place whatever page an incremental build reads again.
        if mine is None or mine.docname == docname or docname < mine.docname:
            self.objects[key] = ObjectEntry(docname, given, title, objtype)
        self._note_label(given, title)
        return given

    @property
    def described(self) -> dict[str, set[tuple[str, str]]]:
        """Docname -> the objects its directives describe (a duplicate's too: :func:`co_describers`)."""
        return self.data.setdefault("described", {})

    def note_object_from_data(self, objtype: str, name: str, title: str, anchor: str, docname: str) -> bool:
        """Record the canonical place of an object page ``docname`` makes when written
        (:mod:`.hosted`), and its standard label (:meth:`_note_label`); whether the label was given."""
        self.objects[(objtype, name)] = ObjectEntry(docname, anchor, title, objtype)
        return self._note_label(anchor, title, docname=docname)

    def forget_objects(self, objtype: str) -> None:
        """Forget every object of ``objtype`` (hosted objects, made again from the data: :mod:`.hosted`)."""
        for key in [key for key in self.objects if key[0] == objtype]:
            del self.objects[key]

    def _note_label(self, label: str, title: str, anchor: str | None = None, docname: str | None = None) -> bool:
        """The object's anchor as a standard label too (``device-trainium``; an alias's is made like an
        object's anchor: ``model-llama-2-7b``), with its title: another
        site with ``sphinx.ext.intersphinx`` alone links to it with ``:ref:`` (``std:label`` in
        ``objects.inv``), and a MyST link ``[...](#device-trainium)`` resolves. A label the page (or
        another) already has keeps its place; the standard domain clears and merges its labels per
        page itself."""
        std = self.env.domains.standard_domain
        if label in std.anonlabels:
            return False
        std.note_hyperlink_target(label, docname or self.env.docname, anchor or label, title)
        return True

    def note_alias(self, alias: str, anchor: str, objtype: str) -> None:
        """Another name for a place (its label, ``model-llama-2-7b``, is given once every page has
        been read: :meth:`settle_alias_labels`)."""
        self._keep_alias(alias, (self.env.docname, anchor, objtype))

    def settle_alias_labels(self) -> None:
        """Give each alias's standard label to the alias's one place (:meth:`_keep_alias`: the first
        page by name), once every page has been read and merged.

        Two pages may name the same model (``model-resnet50``); at read time the label would go to
        the page read first, which in a parallel build is whichever worker finished first (and so
        would ``objects.inv``). A label a writer gave by hand is never taken over.
        """
        std = self.env.domains.standard_domain
        given = cast("dict[str, str]", self.data.setdefault("alias_labels", {}))  # label -> docname we gave it to
        for alias, (docname, anchor, objtype) in sorted(self.aliases.items()):
            label = anchor_for(objtype, alias)
            held = std.anonlabels.get(label)
            if held is not None and held[0] == docname and held[1] == anchor:
                given[label] = docname
                continue
            if held is not None and given.get(label) != held[0]:
                continue  # a label of a writer's (or an object's own anchor): it keeps its place
            std.labels.pop(label, None)
            std.anonlabels.pop(label, None)
            std.note_hyperlink_target(label, docname, anchor, alias)
            given[label] = docname

    def _keep_alias(self, alias: str, place: tuple[str, str, str]) -> None:
        """The first place of a page, and of the first page by name: the same in serial and parallel builds."""
        mine = self.aliases.get(alias)
        if mine is None or place[0] < mine[0]:
            self.aliases[alias] = place

    def dependencies(self, kind: str) -> dict[str, dict[str, str]]:
        """Docname -> the data keys (:mod:`.data.record_keys`) the page ``"reads"`` (re-read when one
        changes) or ``"shows"`` (rewritten), each with its digest when last seen."""
        return self.data.setdefault(kind, {})

    def note_dependencies(self, kind: str, docname: str, digests: dict[str, str]) -> None:
        self.dependencies(kind).setdefault(docname, {}).update(digests)

    def clear_doc(self, docname: str) -> None:
        for key, entry in list(self.objects.items()):
            if entry.docname == docname:
                del self.objects[key]
        for alias, place in list(self.aliases.items()):
            if place[0] == docname:
                del self.aliases[alias]
        given = self.data.setdefault("alias_labels", {})
        for label, owner in list(given.items()):
            if owner == docname:
                del given[label]
        for kind in ("reads", "shows", "hosts"):
            self.data.setdefault(kind, {}).pop(docname, None)
        self.described.pop(docname, None)

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        for key, entry in sorted(otherdata.get("objects", {}).items()):
            if entry.docname not in docnames:
                continue
            mine = self.objects.get(key)
            if mine is not None and mine.docname != entry.docname:
                # The duplicate a serial build reports while reading; here the two were read apart.
                first, second = sorted((mine, entry), key=lambda e: e.docname)
                warn_duplicate(key[0], key[1], first.docname, (second.docname, None))
                entry = first
            self.objects[key] = entry
        for alias, entry in otherdata.get("aliases", {}).items():
            if entry[0] in docnames:
                self._keep_alias(alias, tuple(entry))
        for kind in ("reads", "shows", "hosts"):
            for docname, noted in otherdata.get(kind, {}).items():
                if docname in docnames:
                    self.data.setdefault(kind, {})[docname] = noted
        for docname, keys in otherdata.get("described", {}).items():
            if docname in docnames:
                self.described[docname] = keys

    def resolve_xref(self, env: BuildEnvironment, fromdocname: str, builder: Builder, typ: str,
                     target: str, node: addnodes.pending_xref, contnode: nodes.Element) -> nodes.reference | None:
        target, _, fragment = target.partition("#") if typ == "revision" else (target, "", "")
        entry = self.objects.get((typ, target))
        if entry is not None and fragment:  # a place on a revision's page: a cell, a row
            return make_refnode(builder, fromdocname, entry.docname, fragment, contnode, entry.title)
        if entry is None and typ == "representative" and target in self.aliases:
            docname, anchor, _ = self.aliases[target]
            return make_refnode(builder, fromdocname, docname, anchor, contnode, target)
        if entry is None or (typ in HTML_ONLY_PLACES and builder.format != "html"):
            return None
        if not node.get("refexplicit"):  # :neuron:device:`inferentia` reads "AWS Inferentia"
            contnode = nodes.inline(entry.title, entry.title, classes=["xref", "neuron", f"neuron-{typ}"])
        return make_refnode(builder, fromdocname, entry.docname, entry.anchor, contnode, entry.title)

    def resolve_any_xref(self, env: BuildEnvironment, fromdocname: str, builder: Builder, target: str,
                         node: addnodes.pending_xref, contnode: nodes.Element) -> list[tuple[str, nodes.reference]]:
        results = []
        for objtype in OBJECT_TYPES:
            ref = self.resolve_xref(env, fromdocname, builder, objtype, target, node, contnode)
            if ref is not None:
                results.append((f"neuron:{objtype}", ref))
        return results

    def get_objects(self) -> Iterator[tuple[str, str, str, str, str, int]]:
        for (objtype, name), entry in sorted(self.objects.items()):
            if entry.anchor == f"{objtype}-{name}" and entry.title != name:
                # Sphinx's search index writes this anchor as "-" and its script rebuilds it from the
                # title ("#family-Transformers Decoders"): keep the id for objects.inv only, and let
                # the title find the object with its anchor written out.
                yield name, entry.title, objtype, entry.docname, entry.anchor, -1
                yield entry.title, entry.title, objtype, entry.docname, entry.anchor, 1
            else:
                yield name, entry.title, objtype, entry.docname, entry.anchor, 1
        aliases = dict(self.aliases)
        for (objtype, name), entry in sorted(self.objects.items()):  # other names of a family ("LLM", "ViT")
            for synonym in FAMILY_SYNONYMS.get(name, ()) if objtype == "family" else ():
                aliases.setdefault(synonym, (entry.docname, entry.anchor, objtype))
        for model in self.build.dataset.catalog.published_models.values():  # "Llama" finds its family too
            if (family := self.objects.get(("family", model.family))) is not None:
                aliases.setdefault(f"{family.title}: {model.name}", (family.docname, family.anchor, "family"))
        # An alias never shadows an object's own id or title (one name, one place, in objects.inv too).
        taken = {(objtype, n) for (objtype, name), entry in self.objects.items() for n in (name, entry.title)}
        for alias, (docname, anchor, objtype) in sorted(aliases.items()):
            if (objtype, alias) not in taken:
                yield alias, alias, objtype, docname, anchor, 2

    def get_full_qualified_name(self, node: nodes.Element) -> str | None:
        return node.get("reftarget")

    def directive(self, name: str) -> Any:
        """The directive adapter, marking the output as data: text exactly as the data file has it.

        Sphinx's smart quotes would otherwise turn a data string's ``"``, ``'``, ``--`` and ``...``
        into typography (``--fast-math`` would print as ``\u2013fast-math``, with an en dash).
        """
        if name in self._data_adapters:
            return self._data_adapters[name]
        adapter = super().directive(name)
        if adapter is None:
            return adapter

        class DataAdapter(adapter):  # type: ignore[valid-type,misc]  # a class made at run time, as in Sphinx
            neuron_data_output = True

            def run(self) -> list[nodes.Node]:
                noted: list[tuple[str, str]] = []
                self.env.temp_data["neuron_noted"] = noted
                result = super().run()
                for node in result:
                    if isinstance(node, nodes.Element):
                        node["support_smartquotes"] = False
                mark_object_places(result, noted)
                return result

        self._data_adapters[name] = DataAdapter
        return DataAdapter


def _indexed(element: nodes.Element, anchor: str) -> bool:
    """Whether ``element`` holds, as a direct child, an index entry pointing at ``anchor``."""
    return any(isinstance(child, addnodes.index) and any(entry[2] == anchor for entry in child["entries"])
               for child in element.children)


def mark_object_places(result: list[nodes.Node], noted: list[tuple[str, str]]) -> None:
    """Mark, in a directive's output, the element that is each noted object's canonical place.

    ``noted``: the (wanted, given) anchors :meth:`NeuronDomain.note_object` handed out, in order.
    An element that still carries the wanted anchor although its object was given another (a
    section whose directive did not use the returned anchor) is moved to it, index entry included:
    the n-th element holding an index entry for the wanted anchor is the n-th object noted with it.
    Each object's place gets :data:`..node_data.OBJECT_ANCHOR`, so :mod:`.site.ids` leaves its id alone when
    another element of the page has the same id: the element with the object's index entry if there
    is one, else the first carrying it that is not a table named by it (a model ``status`` and the
    ``model-status`` table).
    """
    if not noted:
        return
    carrying: dict[str, list[nodes.Element]] = {}  # id -> the elements carrying it, in order
    for node in result:
        if isinstance(node, nodes.Element):
            for element in node.findall(nodes.Element):
                for anchor in element["ids"]:
                    carrying.setdefault(anchor, []).append(element)
    by_wanted: dict[str, list[str]] = {}
    for wanted, given in noted:
        by_wanted.setdefault(wanted, []).append(given)
    for wanted, givens in by_wanted.items():
        if givens == [wanted] * len(givens):
            continue
        places = [e for e in carrying.get(wanted, []) if _indexed(e, wanted)]
        for place, given in zip(places, givens, strict=False):
            if given == wanted:
                continue
            place["ids"] = [given if a == wanted else a for a in place["ids"]]
            carrying.setdefault(given, []).append(place)
            for child in place.children:
                if isinstance(child, addnodes.index):
                    child["entries"] = [(*e[:2], given if e[2] == wanted else e[2], *e[3:]) for e in child["entries"]]
    for given in dict.fromkeys(g for _, g in noted):
        carriers = [e for e in carrying.get(given, []) if given in e["ids"] and TABLE_NAME_ID.get(e) != given]
        carriers = [e for e in carriers if _indexed(e, given)] or carriers
        if carriers:
            OBJECT_ANCHOR.set(carriers[0], given)


def xref(objtype: str, target: str, text: str | None = None, classes: Iterable[str] = (),
         content: nodes.Node | None = None) -> nodes.Node:
    """A pending cross-reference to a Neuron object, resolved once every page has been read.

    The link shows ``content`` if given, else ``text`` (default: the target id) as plain text.
    Generated links whose object has no canonical place in this project stay plain text
    (see :func:`unlinked_generated_reference`); links written by hand still warn.
    """
    ref = addnodes.pending_xref("", refdomain="neuron", reftype=objtype, reftarget=target, refexplicit=True,
                                refwarn=False, **GENERATED_REFERENCE.attribute(True))
    ref += content if content is not None else nodes.inline(
        text or target, text or target, classes=["xref", f"neuron-{objtype}", *classes])
    return ref


def neuron_domain(env: BuildEnvironment) -> NeuronDomain:
    """The build's ``neuron`` domain: the one typed way to it. It keeps the objects, the
    dependencies and the hosts (``self.data``, pickled with the environment) and owns the build's
    state (:attr:`NeuronDomain.build`, made afresh per build)."""
    return cast("NeuronDomain", env.get_domain("neuron"))


def state(env: BuildEnvironment) -> BuildState:
    """The state of the build ``env`` belongs to (:class:`~.build.BuildState`)."""
    return neuron_domain(env).build


def dataset(env: BuildEnvironment) -> DataSet:
    """The data set of the build ``env`` belongs to."""
    return state(env).dataset


def warn_duplicate(objtype: str, name: str, first: str, location: Any, more: int = 0) -> None:
    """An object described in two places (``more``: and so many other objects of the same two pages)."""
    others = f" and {more} more" if more else ""
    logger.warning("duplicate %s %r%s, also described in %s; add :no-index: to one of them",
                   OBJECT_TYPES[objtype][0], name, others, first, location=location, type="neuron",
                   subtype="duplicate")


def index_entry(objtype: str, title: str, anchor: str) -> addnodes.index:
    """A general-index entry ("Transformers Encoders (model family)") pointing at ``anchor``."""
    label = OBJECT_TYPES[objtype][0]
    return addnodes.index(entries=[("single", f"{title} ({label})", anchor, "", None)])


def unlinked_generated_reference(app: Sphinx, env: BuildEnvironment, node: addnodes.pending_xref,
                                 contnode: nodes.Element) -> nodes.Node | None:
    """Keep a generated link's text when its target is not described anywhere in this project, and
    a link's to a record set aside (its problem warned once, where the data is loaded: one cause, one
    warning)."""
    if node.get("refdomain") != "neuron":
        return None
    if GENERATED_REFERENCE.get(node):
        return contnode
    objtype = OBJECT_TYPES.get(str(node.get("reftype")))
    target = str(node.get("reftarget"))
    if objtype and set_aside(dataset(env).catalog, objtype[1], target):
        SET_ASIDE.set(contnode, f"{objtype[1]}/{target}")  # the page shows its box (render.expand)
        return contnode
    return None


def settle_alias_labels_of_pages(app: Sphinx, env: BuildEnvironment) -> list[str]:
    neuron_domain(env).settle_alias_labels()
    return []


def co_describers(app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str],
                  removed: set[str]) -> list[str]:
    """The pages that describe an object a changed or removed page describes too (a duplicate): read
    again with it. A page given ``:no-index:`` (or losing its directive) lets the object go; the other
    page, read again, keeps it, as a clean build would (else its links would point nowhere until
    that page changed)."""
    domain = neuron_domain(env)
    described = domain.described
    touched = changed | removed
    keys = set().union(*(described.get(docname, set()) for docname in touched))
    others = sorted(docname for docname, theirs in described.items()
                    if docname not in touched and docname in env.all_docs and theirs & keys)
    shared = keys & set().union(*(described[docname] for docname in others))
    domain.settling = {key: entry.docname if (entry := domain.objects.get(key)) else None for key in shared}
    return others


def pages_of_settled_objects(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Every page written again when an object described twice moved (a ``:no-index:`` settled it):
    which pages link to it is not known before they are resolved; it is a rare change."""
    domain = neuron_domain(env)
    moved = [key for key, docname in domain.settling.items()
             if (entry := domain.objects.get(key)) is None or entry.docname != docname]
    domain.settling = {}
    return sorted(env.all_docs) if moved else []


def setup_domain(app: Sphinx) -> None:
    app.add_domain(NeuronDomain)
