"""What a page depends on and what a change does (:mod:`neuron_docs.state.dependencies`), on a build
environment made here: the ``neuron`` domain's keys, the data's digests and the pages read are plain
objects, so the rules are tested without a Sphinx build (``tests/test_csv_index_incremental.py`` and
``tests/test_incremental.py`` build for real). Written for ``make mutation`` (``tests/MUTATION.md``);
light, so that it runs without the shared fixtures (``--noconftest``)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from neuron_docs.state import dependencies as deps

EVERY = deps.EVERY_PAGE


class _Digests:
    """The data's digest of each key, and the files each key covers."""

    def __init__(self, digests: dict[str, str], files: dict[str, set[str]] | None = None) -> None:
        self.digests, self.covered = digests, files or {}

    def of(self, keys: Any) -> dict[str, str]:
        return {key: self.digests.get(key, "missing") for key in keys}

    def files(self, key: str) -> set[str]:
        return self.covered.get(key, set())


class _Domain:
    """The ``neuron`` domain as the rules see it: the keys each page reads and shows, and the build."""

    def __init__(self, digests: _Digests) -> None:
        self.data: dict[str, dict[str, dict[str, str]]] = {}
        self.build = SimpleNamespace(digests=lambda: digests, pages_read=set())

    def dependencies(self, kind: str) -> dict[str, dict[str, str]]:
        return self.data.setdefault(kind, {})

    def note_dependencies(self, kind: str, docname: str, digests: dict[str, str]) -> None:
        self.dependencies(kind).setdefault(docname, {}).update(digests)


def _env(digests: dict[str, str], docs: tuple[str, ...] = ("index", "page", "other", "csv"),
         files: dict[str, set[str]] | None = None) -> Any:
    domain = _Domain(_Digests(digests, files))

    def get_domain(name: str) -> _Domain:
        assert name == "neuron"
        return domain

    return SimpleNamespace(docname="page", all_docs=dict.fromkeys(docs, 0.0), get_domain=get_domain, domain=domain)


def test_a_page_records_the_digests_of_what_it_reads_and_shows() -> None:
    env = _env({"file:devices.yaml": "d1", "file:matrix/": "m1", "record:devices:trn1": "t1"})
    deps.uses(SimpleNamespace(env=env), "devices.yaml", "matrix/")  # type: ignore[arg-type]
    deps.shows(env, "record:devices:trn1")
    deps.note(env, deps.SHOWS, ["file:devices.yaml"], docname="other")
    assert env.domain.data == {"reads": {"page": {"file:devices.yaml": "d1", "file:matrix/": "m1"}},
                               "shows": {"page": {"record:devices:trn1": "t1"}, "other": {"file:devices.yaml": "d1"}}}
    deps.shows_every_page(env)
    assert env.domain.data["shows"]["page"] == {"record:devices:trn1": "t1", EVERY: ""}


def test_the_files_of_a_page_are_those_of_what_it_reads_and_shows() -> None:
    env = _env({}, files={"file:a.yaml": {"a.yaml"}, "record:x": {"b.yaml", "c.yaml"}, "value:y": {"c.yaml"}})
    env.domain.note_dependencies(deps.READS, "page", {"file:a.yaml": "1"})
    env.domain.note_dependencies(deps.SHOWS, "page", {"record:x": "2", "value:y": "3"})
    env.domain.note_dependencies(deps.SHOWS, "other", {"file:a.yaml": "1"})
    assert deps.files_of(env, "page") == {"a.yaml", "b.yaml", "c.yaml"}
    assert deps.files_of(env, "index") == set()


def test_a_page_made_of_changed_data_is_read_again() -> None:
    env = _env({"file:a.yaml": "new", "file:b.yaml": "same"}, docs=("page", "other", "third"))
    env.domain.note_dependencies(deps.READS, "page", {"file:b.yaml": "same", "file:a.yaml": "old"})
    env.domain.note_dependencies(deps.READS, "other", {"file:b.yaml": "same", "file:a.yaml": "new"})
    env.domain.note_dependencies(deps.READS, "gone", {"file:a.yaml": "old"})
    env.domain.note_dependencies(deps.READS, "third", {"file:a.yaml": "old"})
    # "gone" is no page any more: not read; "other" saw the digest it has now; "page" and "third" did not.
    assert deps.pages_to_read_again(None, env, set(), set(), set()) == ["page", "third"]  # type: ignore[arg-type]
    deps.note_pages_read(None, env, ["page", "third"])  # type: ignore[arg-type]
    assert env.domain.build.pages_read == {"page", "third"}


def test_a_page_showing_changed_data_is_written_again_with_the_new_digests() -> None:
    env = _env({"record:x": "2", "record:y": "1"})
    env.domain.note_dependencies(deps.SHOWS, "page", {"record:x": "1"})
    env.domain.note_dependencies(deps.SHOWS, "other", {"record:y": "1"})
    assert deps.pages_to_write_again(None, env) == ["page"]  # type: ignore[arg-type]
    assert env.domain.data["shows"]["page"] == {"record:x": "2"}
    assert deps.pages_to_write_again(None, env) == []  # type: ignore[arg-type]


def test_the_page_that_lists_every_page_follows_any_other_page() -> None:
    env = _env({"record:x": "2", "record:y": "1"})
    env.domain.note_dependencies(deps.SHOWS, "csv", {EVERY: "", "record:y": "1"})
    env.domain.note_dependencies(deps.SHOWS, "page", {"record:x": "2"})
    assert deps.pages_to_write_again(None, env) == []  # type: ignore[arg-type]  # nothing read, nothing changed
    env.domain.build.pages_read = {"csv"}
    assert deps.pages_to_write_again(None, env) == []  # type: ignore[arg-type]  # only the listing page itself was read
    env.domain.build.pages_read = {"other"}
    assert deps.pages_to_write_again(None, env) == ["csv"]  # type: ignore[arg-type]  # another page was read
    env.domain.build.pages_read = set()
    env.domain.note_dependencies(deps.SHOWS, "page", {"record:x": "1"})
    assert deps.pages_to_write_again(None, env) == ["csv", "page"]  # type: ignore[arg-type]  # another page is rewritten
    assert env.domain.data["shows"]["csv"] == {EVERY: "", "record:y": "1"}


def test_a_listing_page_that_is_no_page_any_more_is_not_written() -> None:
    env = _env({"record:x": "2"}, docs=("page",))
    env.domain.note_dependencies(deps.SHOWS, "csv", {EVERY: ""})
    env.domain.note_dependencies(deps.SHOWS, "page", {"record:x": "1"})
    assert deps.pages_to_write_again(None, env) == ["page"]  # type: ignore[arg-type]


def test_the_rules_are_connected_to_sphinxs_events() -> None:
    from neuron_docs.lifecycle import HANDLERS

    table = [(h.phase, h.handler) for h in HANDLERS]
    for row in [("env-get-outdated", deps.pages_to_read_again), ("env-before-read-docs", deps.note_pages_read),
                ("env-updated", deps.pages_to_write_again)]:
        assert row in table
