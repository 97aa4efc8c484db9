"""The words naming the records of a data set, for telling which records a passage talks about (no Sphinx).

:class:`RecordKeywords` gives the keyword groups of a record (a run is named by its model and by its
instance or device: one group each) when they are first asked for, not for every record up front:
at scale a page's figures come near a few hundred of tens of thousands of runs. The keyword sets
are made once per model, instance and (model, environment) and shared by every record naming them.

The vocabulary (every word naming a model, and every word naming an instance or device) is made
from the catalog's models, instances, devices, environments and comparisons in one pass over the
records (no figure is computed for it), before any group is asked for, so that it never depends on
which records a build happened to look at.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..data.figures.identity import identities
from .passages import words

if TYPE_CHECKING:
    from ..data.catalog import Catalog

#: Words too common in record names to say which record a passage talks about.
_STOP = {"aws", "the", "of", "and", "a", "an", "model", "models", "base", "large", "xlarge", "nvidia", "gb",
         "instance", "instances", "device", "devices", "run", "runs", "acc", "b1", "b2", "b3", "b4", "b128",
         "initial", "on", "none"}

#: Instance sizes ("32xlarge"): the part of many instances' ids that names none of them.
_SIZE = re.compile(r"\d*x?large|metal")

Groups = tuple[frozenset[str], ...]


def tokens(*texts: str | None) -> frozenset[str]:
    """The words of ``texts`` that can tell records apart (no stop words, no bare numbers)."""
    out: set[str] = set()
    for text in texts:
        if text:
            out.update(words(text))
    return frozenset(w for w in out if w not in _STOP and not w.isdigit() and not _SIZE.fullmatch(w))


class Vocabulary:
    """The words naming subjects of each kind (models; instances and devices), and the kind of each group."""

    def __init__(self) -> None:
        self.words: dict[str, set[str]] = {"model": set(), "platform": set()}
        self._kinds: dict[frozenset[str], str] = {}

    def add(self, kind: str, group: frozenset[str]) -> frozenset[str]:
        self.words[kind] |= group
        self._kinds.setdefault(group, kind)
        return group

    def kind(self, group: frozenset[str]) -> str:
        return self._kinds.get(group, "")


class RecordKeywords:
    """Keyword groups naming each record (``kind:id``), made on first use; and the vocabulary."""

    def __init__(self, catalog: Catalog | None) -> None:
        self.catalog = catalog
        self.vocabulary = Vocabulary()
        self._groups: dict[str, Groups] = {}
        self._instances: dict[str, frozenset[str]] = {}
        self._models: dict[str, frozenset[str]] = {}
        self._runs: dict[tuple[str, str], Groups] = {}
        self._published: dict[tuple[str, tuple[str, ...]], Groups] = {}
        self._platforms: dict[str, frozenset[str]] = {}
        if catalog is not None:
            self._fill_vocabulary(catalog)

    def groups(self, key: str) -> Groups:
        """The keyword groups of the record ``kind:id`` (a record is named when one word of each is)."""
        found = self._groups.get(key)
        if found is None:
            found = self._groups[key] = self._make(key)
        return found

    def _fill_vocabulary(self, catalog: Catalog) -> None:
        """Every group that names a model or a platform, in the order the records give them (a group
        naming both kinds keeps the first); then words naming both kinds are dropped from each."""
        for run in catalog.inference_runs.values():
            self._run_words(run.model, run.environment)
        for acc in catalog.accuracy_runs.values():
            self._run_words(acc.model, acc.environment)
        for instance_id in catalog.instances:
            self._instance_own(instance_id)
        for device in catalog.devices.values():
            self._device_words(device.id)
        for model_id in catalog.models:
            self._model_words(model_id)
        for comparison in catalog.comparisons.values():
            self._instance_words(comparison.subject)
            self._instance_words(comparison.baseline)
        for prun in catalog.published_inference_runs.values():
            self._published_words(prun.model, (prun.instance,))
        for ptrain in catalog.published_training_runs.values():
            self._published_words(ptrain.model, tuple(ptrain.instances))
        # Words naming both a model and a platform say nothing about which kind of subject is meant.
        shared = self.vocabulary.words["model"] & self.vocabulary.words["platform"]
        for kind in self.vocabulary.words:
            self.vocabulary.words[kind] -= shared

    def _make(self, key: str) -> Groups:
        kind, _, record = key.partition(":")
        catalog = self.catalog
        if catalog is None:
            return (tokens(record),)
        if kind == "run" and record in catalog.inference_runs:
            run = catalog.inference_runs[record]
            return self._run_words(run.model, run.environment)
        if kind == "accuracy" and record in catalog.accuracy_runs:
            acc = catalog.accuracy_runs[record]
            return self._run_words(acc.model, acc.environment)
        if kind == "prun" and record in catalog.published_inference_runs:
            prun = catalog.published_inference_runs[record]
            return self._published_words(prun.model, (prun.instance,))
        if kind == "ptrain" and record in catalog.published_training_runs:
            ptrain = catalog.published_training_runs[record]
            return self._published_words(ptrain.model, tuple(ptrain.instances))
        if kind == "instance" and record in catalog.instances:
            return (self._instance_own(record),)
        if kind == "device" and record in catalog.devices:
            return (self._device_words(record),)
        if kind == "comparison" and record in catalog.comparisons:
            c = catalog.comparisons[record]
            return (self._instance_words(c.subject), self._instance_words(c.baseline))
        if kind == "model":  # ``model:<id>`` or, for a variant's figures, ``model:<id>.<variant>``
            model_id = record if record in catalog.models else next(
                (m for m in catalog.models if record.startswith(f"{m}.")), record.split(".")[0])
            return (self._model_words(model_id),)
        return (tokens(record.replace(".", " ")),)

    def _instance_words(self, instance_id: str) -> frozenset[str]:
        """An instance's words: its id, family, device, the device's name ("gpu", "inf" for their kinds)."""
        if instance_id not in self._instances:
            assert self.catalog is not None
            instance = self.catalog.instances.get(instance_id)
            if instance is None:
                self._instances[instance_id] = tokens(instance_id)
            else:
                device = self.catalog.devices.get(instance.device)
                extra = ["gpu"] if device is not None and device.kind == "gpu" else []
                extra += ["inf"] if instance.family.startswith("inf") else []
                self._instances[instance_id] = self.vocabulary.add(
                    "platform", tokens(instance_id, instance.family, instance.device, device.name if device else "",
                                       *extra))
        return self._instances[instance_id]

    def _instance_own(self, instance_id: str) -> frozenset[str]:
        """The words naming an instance's own figures: a device's name names them only when the
        instance has one device ("an A100" is not a p4d.24xlarge with eight of them)."""
        if instance_id not in self._platforms:
            assert self.catalog is not None
            instance = self.catalog.instances[instance_id]
            self._platforms[instance_id] = self._instance_words(instance_id) if instance.device_count == 1 else \
                self.vocabulary.add("platform", tokens(instance_id, instance.family))
        return self._platforms[instance_id]

    def _device_words(self, device_id: str) -> frozenset[str]:
        key = f"device:{device_id}"
        if key not in self._platforms:
            assert self.catalog is not None
            device = self.catalog.devices[device_id]
            self._platforms[key] = self.vocabulary.add("platform", tokens(device.id, device.name))
        return self._platforms[key]

    def _model_words(self, model_id: str) -> frozenset[str]:
        """A model's words: its id and name, and the names of its identity (the published model it is,
        its aliases: "google/vit-base-patch16-224" names the seed's ViT), not the tables' other spellings."""
        if model_id not in self._models:
            assert self.catalog is not None
            model = self.catalog.models.get(model_id)
            identity = identities(self.catalog).of_seed(model_id)
            names = [identity.name, *identity.aliases] if identity else []
            self._models[model_id] = self.vocabulary.add("model", tokens(model_id, model.name if model else "", *names))
        return self._models[model_id]

    def _run_words(self, model_id: str, environment_id: str) -> Groups:
        """A run's groups: its model's words and its environment's instance's words."""
        if (model_id, environment_id) not in self._runs:
            assert self.catalog is not None
            env = self.catalog.environments.get(environment_id)
            groups = [self._model_words(model_id), self._instance_words(env.instance) if env else frozenset()]
            self._runs[model_id, environment_id] = tuple(g for g in groups if g)
        return self._runs[model_id, environment_id]

    def _published_words(self, model_name: str, instances: tuple[str, ...]) -> Groups:
        """A published run's groups: its model's words (as the table names it) and its instances' words."""
        key = (model_name, instances)
        if key not in self._published:
            model = self.vocabulary.add("model", tokens(model_name))
            platform = frozenset().union(*(self._instance_words(i) for i in instances))
            if len(instances) > 1:
                self.vocabulary.add("platform", platform)
            self._published[key] = tuple(g for g in (model, platform) if g)
        return self._published[key]
