"""One identity per model: its names as people write them, its family, its runs; and the resolver.

A model is written many ways (``meta-llama/Meta-Llama-3-8B``, ``Llama 3 8B``), and the data holds it
in several records: a published table's spelling (``BERT base (bert-base-uncased)`` and
``bert-base-uncased`` are one model: ``same_as``), a seed model (``ViT`` is
``google/vit-base-patch16-224``), each with ``aliases``. :func:`identities` groups them into
:class:`Identity` records; :meth:`Identities.resolve` turns any text into an identity, else a family,
else the nearest models and families (rapidfuzz), never a dead end. The advisor, the performance pages,
the search and the drift checker resolve names here; names are compared by
:func:`~neuron_docs.data.records.names.name_key`. No Sphinx here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rapidfuzz import fuzz, process

from ..checking.identities import MODEL_COLLECTIONS, identity_of, model_names
from ..records.labels import FAMILY_SYNONYMS
from ..records.names import name_key

if TYPE_CHECKING:
    from ..catalog import Catalog
    from ..records import published as ps
    from ..records import models as s

#: The page readers are sent to when a name is not in the data (a Sphinx document name).
GUIDELINES_DOC = "architecture-fit"
#: How many suggestions an unknown name gets, and the least similarity (0-100) one must have.
SUGGESTIONS = 5
SUGGESTION_CUTOFF = 50.0
#: How many names are suggested when none comes that close (the reader still gets somewhere to go).
FALLBACK = 3


@dataclass
class Identity:
    """One model: its id (``published:<id>`` or ``seed:<id>``), display name, family, every name."""

    id: str
    name: str
    family: str
    #: Every name and alias of every record of the model, first the identity's own name.
    names: list[str] = field(default_factory=list)
    #: The aliases of every record of the model (names people write, not the tables' spellings).
    aliases: list[str] = field(default_factory=list)
    #: The published tables' spellings of the model (a published run's ``model``).
    published: list[str] = field(default_factory=list)
    #: The seed models (``models.yaml`` ids) that are this model.
    seed: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Suggestion:
    """A model or family near an unknown name: ``kind`` is "model" or "family", ``id`` its id."""

    kind: str
    id: str
    name: str
    score: float


@dataclass(frozen=True)
class Resolution:
    """What a text names: an identity (a model), else a family, else neither; with suggestions
    (for a name that matched nothing, or only the start of several models' names)."""

    text: str
    identity: Identity | None = None
    family: str | None = None
    #: True when the text was only the start of the model's names ("Mistral 7B").
    partial: bool = False
    suggestions: tuple[Suggestion, ...] = ()


class Identities:
    """Every model identity of a catalog, by id, by key and by the names the records use."""

    def __init__(self, catalog: Catalog) -> None:
        self.by_id: dict[str, Identity] = {}
        #: name key -> identity id (the first record that claims a key keeps it: the validation
        #: reports any other as an error).
        self.keys: dict[str, str] = {}
        #: family name keys (names, ids, representatives, synonyms) -> family id.
        self.family_keys: dict[str, str] = {}
        self._published: dict[str, str] = {}  # a published table's spelling -> identity id
        self._seed: dict[str, str] = {}       # a seed model id -> identity id
        self.family_names = {f.id: f.name for f in catalog.families.values()}
        records: list[tuple[str, s.Model | ps.PublishedModel]] = [
            (c, r) for c in MODEL_COLLECTIONS for r in catalog.records[c].values()]
        for collection, record in sorted(records, key=lambda cr: bool(cr[1].same_as)):  # identities first
            ident = identity_of(collection, record)
            target = self.by_id.setdefault(ident, Identity(ident, record.name, record.family))
            (target.published if collection == "published_models" else target.seed).append(
                record.name if collection == "published_models" else record.id)
            (self._published if collection == "published_models" else self._seed)[
                record.name if collection == "published_models" else record.id] = ident
            target.aliases += [a for a in record.aliases if a not in target.aliases]
            for _rel, name in model_names(record):
                if name not in target.names:
                    target.names.append(name)
                if (key := name_key(name)):
                    self.keys.setdefault(key, ident)
        for family in catalog.families.values():
            for name in (family.id, family.name, family.short_name, *family.representatives,
                         *FAMILY_SYNONYMS.get(family.id, ())):
                if (key := name_key(name)):
                    self.family_keys.setdefault(key, family.id)

    def of_published(self, name: str) -> Identity | None:
        """The identity of a published run's ``model`` (its table's spelling)."""
        ident = self._published.get(name)
        return self.by_id[ident] if ident else None

    def of_seed(self, model_id: str) -> Identity | None:
        """The identity of a seed model (``models.yaml`` id)."""
        ident = self._seed.get(model_id)
        return self.by_id[ident] if ident else None

    def resolve(self, text: str) -> Resolution:
        """A model's identity when ``text`` is one of its names (by key) or the start of one model's
        names only; else a family when it names one; else the nearest models and families."""
        key = name_key(text)
        if not key:
            return Resolution(text)
        if key in self.keys:
            return Resolution(text, self.by_id[self.keys[key]])
        starting = list(dict.fromkeys(i for k, i in self.keys.items() if k.startswith(key)))
        if len(starting) == 1:
            return Resolution(text, self.by_id[starting[0]], partial=True)
        families = {self.by_id[i].family for i in starting}
        family = self.family_keys.get(key) or (families.pop() if len(families) == 1 else None)
        suggestions = (tuple(self._identity_suggestion(self.by_id[i]) for i in starting[:SUGGESTIONS])
                       or self.suggest(text))
        return Resolution(text, None, family, suggestions=suggestions)

    def suggest(self, text: str, limit: int = SUGGESTIONS) -> tuple[Suggestion, ...]:
        """The models and families whose names are nearest ``text`` (rapidfuzz's ratio of the keys),
        best first, one per model or family; the families of the models found follow them."""
        choices: dict[str, tuple[str, str]] = {}  # key -> (kind, id)
        for key, ident in self.keys.items():
            choices.setdefault(key, ("model", ident))
        for key, family in self.family_keys.items():
            choices.setdefault(key, ("family", family))
        found = process.extract(name_key(text), list(choices), scorer=fuzz.ratio, limit=None,
                                score_cutoff=SUGGESTION_CUTOFF) or process.extract(
            name_key(text), list(choices), scorer=fuzz.ratio, limit=FALLBACK)  # nothing close: the nearest anyway
        out: dict[tuple[str, str], Suggestion] = {}
        for key, score, _index in found:
            kind, ident = choices[key]
            if (kind, ident) not in out:
                out[(kind, ident)] = (self._identity_suggestion(self.by_id[ident], score) if kind == "model"
                                      else Suggestion("family", ident, self.family_names.get(ident, ident), score))
        models = [x for x in out.values() if x.kind == "model"][:limit]
        families = [x for x in out.values() if x.kind == "family"]
        for model in models:  # the family of each model found, when no family name came close
            family = self.by_id[model.id].family
            if all(f.id != family for f in families):
                families.append(Suggestion("family", family, self.family_names.get(family, family), 0.0))
        return (*models, *families[:limit])

    def _identity_suggestion(self, identity: Identity, score: float = 100.0) -> Suggestion:
        return Suggestion("model", identity.id, identity.name, score)


def identities(catalog: Catalog) -> Identities:
    """The identities of ``catalog`` (made once and kept with it: :meth:`.Catalog.made_once`)."""
    return catalog.made_once("model identities", Identities)


def resolve(catalog: Catalog, text: str) -> Resolution:
    """What ``text`` names in ``catalog``: see :meth:`Identities.resolve`."""
    return identities(catalog).resolve(text)
