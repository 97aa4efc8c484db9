"""pydantic's errors as located messages (``data/checking/errors.py``), on small models declared in the
test and values that break them: the line and field of each error, and what each kind of error says
(what was found, what was expected). No data files, no Sphinx (``make mutation`` runs it with
``--noconftest`` per mutant: ``tests/MUTATION.md``)."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

import pytest
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, model_validator

from neuron_docs.data.checking.errors import (_candidates, _model_at, _plain, _step, located_errors, lookalike_of,
                                              nearest_line, short_repr, unknown_key_message)
from neuron_docs.data.files.loader import DataError, dotted_path

Id = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9.\-]*$")]
Key = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]


def lowercase(value: str) -> str:
    if value != value.lower():
        raise ValueError("must be lowercase")
    return value


def even(value: int) -> int:
    if value % 2:
        raise ValueError("an even number")
    return value


class Part(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    size: int = 0

    @model_validator(mode="after")
    def rule(self) -> Part:
        if self.size == 7:
            raise ValueError("size may not be seven")
        return self


class Thing(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: Id
    kind: Literal["alpha", "beta"] = "alpha"
    label: Annotated[str, Field(min_length=1)] = "x"
    code: Annotated[str, Field(min_length=3, max_length=5)] = "abc"
    letter: Annotated[str, Field(max_length=1)] = "a"
    count: Annotated[int, Field(gt=0)] = 1
    share: Annotated[float, Field(le=1.5)] = 1
    low: Annotated[float, Field(ge=2)] = 2
    top: Annotated[int, Field(lt=10)] = 1
    when: dt.date = dt.date(2024, 1, 1)
    part: Part | None = None
    parts: list[Part] = []
    by_key: dict[Key, Part] = {}
    tags: dict[Key, int] = {}
    lower: Annotated[str, AfterValidator(lowercase)] = "a"
    pair: Annotated[int, AfterValidator(even)] = 2
    xs: Annotated[str, Field(pattern=r"^x+$")] = "x"
    either: list[int] | dict[str, int] = []

    @model_validator(mode="after")
    def rule(self) -> Thing:
        if self.count == 7:
            raise ValueError("count may not be seven")
        if self.count == 8:
            raise ValueError("nothing here names a field")
        return self


POSITIONS = {(): 1, ("things",): 2, ("things", 0): 3, ("things", 0, "id"): 4, ("things", 0, "part"): 5,
             ("things", 0, "parts", 0): 6, ("things", 0, "tags"): 7}


def errors(data: dict[str, Any], prefix: tuple[Any, ...] = ("things", 0)) -> list[DataError]:
    with pytest.raises(ValidationError) as caught:
        Thing.model_validate({"id": "a", **data})
    return located_errors(caught.value, Thing, "things.yaml", POSITIONS, prefix, dotted_path)


def said(data: dict[str, Any]) -> list[tuple[str, str]]:
    return [(e.field, e.message) for e in errors(data)]


def test_each_error_is_located_at_its_value_or_the_nearest_enclosing_one() -> None:
    [at_id] = errors({"id": "A"})
    assert (at_id.file, at_id.line, at_id.field) == ("things.yaml", 4, "things[0].id")
    [in_part] = errors({"part": {"name": 1}})
    assert (in_part.line, in_part.field) == (5, "things[0].part.name")
    [no_prefix] = errors({"kind": "gamma"}, prefix=())
    assert (no_prefix.line, no_prefix.field) == (1, "kind")
    assert [e.field for e in errors({"kind": "g", "count": 0})] == ["things[0].kind", "things[0].count"]


def test_a_pattern_is_said_in_words_when_it_is_a_known_one() -> None:
    assert said({"id": "A b"}) == [("things[0].id", "expected an id (lowercase letters, digits, '.' and '-', "
                                                     "starting with a letter or digit) (got 'A b')")]
    assert said({"xs": "y"}) == [("things[0].xs", "expected text matching ^x+$ (got 'y')")]


def test_an_invalid_key_of_a_mapping_is_said_as_a_key() -> None:
    assert said({"tags": {"Bad": 1}}) == [
        ("things[0].tags.Bad", "invalid key: expected a key of lowercase letters, digits and '_', starting with a "
                               "letter (got 'Bad')")]


def test_a_literal_says_its_choices_and_the_closest() -> None:
    assert said({"kind": "alfa"}) == [("things[0].kind", "expected 'alpha' or 'beta' (got 'alfa') (did you mean "
                                                         "'alpha'?)")]
    assert said({"kind": "zzz"}) == [("things[0].kind", "expected 'alpha' or 'beta' (got 'zzz')")]


def test_text_too_short_too_long_or_not_text() -> None:
    assert said({"label": ""}) == [("things[0].label", "expected non-empty text (got an empty string)")]
    assert said({"code": "a"}) == [("things[0].code", "expected text of at least 3 characters (got 1 characters)")]
    assert said({"code": "abcdefg"}) == [("things[0].code", "expected text of at most 5 characters (got 7 "
                                                            "characters)")]
    assert said({"letter": "ab"}) == [("things[0].letter", "expected text of at most 1 characters (got 2 characters)")]
    for value, shown in ((5, "5"), (1.5, "1.5"), (True, "True"), (dt.date(2024, 1, 2), "2024-01-02")):
        assert said({"label": value}) == [("things[0].label", f"expected text (got {shown}); write the value in "
                                                              "quotes to keep it as text")]
    assert said({"label": None}) == [("things[0].label", "expected a valid string (got None)")]


def test_bounds_of_numbers_in_words() -> None:
    assert said({"count": 0}) == [("things[0].count", "expected a number greater than 0 (got 0)")]
    assert said({"share": 2.5}) == [("things[0].share", "expected a number at most 1.5 (got 2.5)")]
    assert said({"low": 1}) == [("things[0].low", "expected a number at least 2 (got 1)")]
    assert said({"top": 10}) == [("things[0].top", "expected a number less than 10 (got 10)")]


def test_dates_say_how_to_write_one() -> None:
    assert said({"when": "2024-13-01"}) == [
        ("things[0].when", "expected a date written YYYY-MM-DD (month value is outside expected range of 1-12) "
                           "(got '2024-13-01')")]
    assert said({"when": "2024/01/02"}) == [
        ("things[0].when", "expected a date written YYYY-MM-DD (invalid date separator, expected `-`) "
                           "(got '2024/01/02')")]
    assert said({"when": [1]}) == [("things[0].when", "expected a valid date")]  # not a date at all
    [(field, message)] = said({"when": dt.datetime(2024, 1, 1, 3)})
    assert message.startswith("expected a date written YYYY-MM-DD (Datetimes provided to dates should have zero "
                              "time - e.g. be exact dates) (got 2024-01-01 03:00:00)")


def test_a_mapping_or_a_list_where_the_other_was_expected() -> None:
    assert said({"part": [1]}) == [("things[0].part", "expected a mapping of keys to values (got a list)")]
    assert said({"part": 5}) == [("things[0].part", "expected a mapping of keys to values (got 5)")]
    assert said({"tags": [1]}) == [("things[0].tags", "expected a mapping of keys to values (got a list)")]
    assert said({"parts": {"a": 1}}) == [("things[0].parts", "expected a list (got a mapping)")]
    assert said({"parts": 3}) == [("things[0].parts", "expected a list (got 3)")]


def test_other_errors_keep_pydantics_words_after_expected() -> None:
    assert said({"parts": [{"name": "n", "size": "q"}]}) == [
        ("things[0].parts[0].size", "expected a valid integer, unable to parse string as an integer (got 'q')")]


def test_a_value_error_is_said_without_its_prefix_and_with_what_was_found() -> None:
    assert said({"lower": "ABC"}) == [("things[0].lower", "expected must be lowercase (got 'ABC')")]
    assert said({"pair": 3}) == [("things[0].pair", "expected an even number (got 3)")]  # a number, not text


def test_a_rule_over_a_record_is_located_at_the_field_it_names_first() -> None:
    [error] = errors({"count": 7})
    assert (error.field, error.message) == ("things[0].count", "expected count may not be seven")
    [nested] = errors({"part": {"name": "n", "size": 7}})
    assert (nested.field, nested.message) == ("things[0].part.size", "expected size may not be seven")
    [in_list] = errors({"parts": [{"name": "n", "size": 7}]})
    assert in_list.field == "things[0].parts[0].size"
    [in_map] = errors({"by_key": {"k": {"name": "n", "size": 7}}})
    assert in_map.field == "things[0].by_key.k.size"
    [unnamed] = errors({"count": 8})
    assert (unnamed.field, unnamed.line) == ("things[0]", 3)


def test_the_types_tried_by_a_union_are_not_part_of_the_path() -> None:
    fields = {e.field for e in errors({"either": "q"})}
    assert fields == {"things[0].either"}


def test_an_unknown_key_says_the_closest_and_every_expected_key() -> None:
    [error] = errors({"labl": "x"})
    assert error.field == "things[0].labl"
    assert error.message == ("unknown key 'labl' (did you mean 'label'?); expected one of: id, kind, label, code, "
                             "letter, count, share, low, top, when, part, parts, by_key, tags, lower, pair, xs, either")
    assert said({"part": {"name": "n", "siz": 1}}) == [
        ("things[0].part.siz", "unknown key 'siz' (did you mean 'size'?); expected one of: name, size")]
    assert said({"parts": [{"name": "n", "zzz": 1}]}) == [
        ("things[0].parts[0].zzz", "unknown key 'zzz'; expected one of: name, size")]
    assert unknown_key_message("x", []) == "unknown key 'x'"


def test_a_missing_field_says_which() -> None:
    assert said({"part": {}}) == [("things[0].part.name", "required field 'name' is missing; expected a value for it")]
    assert said({"parts": [{}]}) == [("things[0].parts[0].name", "required field 'name' is missing; expected a "
                                                                 "value for it")]
    with pytest.raises(ValidationError) as caught:
        Thing.model_validate({})
    [error] = located_errors(caught.value, Thing, "things.yaml", {}, (), dotted_path)
    assert (error.line, error.field, error.message) == (None, "id", "required field 'id' is missing; expected a "
                                                                    "value for it")


def test_a_key_written_with_look_alike_letters_is_one_problem_at_the_key() -> None:
    cyrillic = "n\u0430me"  # Cyrillic а
    [error] = errors({"part": {cyrillic: "x"}})
    assert error.field == f"things[0].part.{cyrillic}"
    assert error.message == (f"unknown key {cyrillic!r} looks like 'name' but is written with look-alike characters "
                             "('а' U+0430 CYRILLIC SMALL LETTER A); expected 'name' typed in plain letters")
    # a look-alike of another field leaves the missing one said
    both = said({"part": {"s\u0456ze": 1}})
    assert [f for f, _ in both] == ["things[0].part.name", "things[0].part.s\u0456ze"]
    # a look-alike key in another record does not hide this record's missing field
    other = said({"parts": [{"size": 1}, {"n\u0430me": "x"}]})
    assert [f for f, _ in other] == ["things[0].parts[0].name", f"things[0].parts[1].{cyrillic}"]


def test_look_alike_keys_by_confusable_skeleton() -> None:
    assert lookalike_of("name", ["name"]) is None
    assert lookalike_of("n\u0430me", ["id", "name"]) == "name"
    assert lookalike_of("\uff4e\uff41\uff4d\uff45", ["name"]) == "name"  # full-width letters
    assert lookalike_of("N\u0430ME", ["name"]) == "name"
    assert lookalike_of("n\u0430m", ["name"]) is None


def test_the_line_of_a_path_is_its_own_or_the_nearest_enclosing_ones() -> None:
    positions = {("a",): 2, ("a", 0): 3, ("a", 0, "b"): 4}
    assert nearest_line(positions, ("a", 0, "b")) == 4
    assert nearest_line(positions, ("a", 0, "c", "d")) == 3
    assert nearest_line(positions, ("z",)) is None
    assert nearest_line({(): 1}, ("z",)) == 1


def test_values_in_messages_are_short() -> None:
    assert short_repr("x" * 60) == "'" + "x" * 56 + "..."
    assert short_repr("x" * 58) == repr("x" * 58)
    assert len(short_repr("x" * 59)) == 60
    assert short_repr(dt.date(2024, 1, 2)) == "2024-01-02"
    assert short_repr(dt.datetime(2024, 1, 2, 3, 4)) == "2024-01-02 03:04:00"
    assert short_repr(3) == "3"


def test_numbers_are_plain() -> None:
    assert _plain(2.0) == "2"
    assert _plain(2.5) == "2.5"
    assert _plain(3) == "3"
    assert _plain(True) == "True"


def test_the_model_of_a_key_path() -> None:
    assert list(_candidates(Annotated[int | None, "m"])) == [int, type(None)]
    assert list(_candidates(Part | None)) == [Part, type(None)]
    assert _step(Thing, "part") == Part | None
    assert _step(dict[str, Part], "k") is Part
    assert _step(list[Part], 0) is Part
    assert _step(list[Part], "k") is None
    assert _step(Thing, 3) is None
    assert _step(Thing, "nothing") is None
    assert _step(int, "x") is None
    assert _model_at(Thing, ("id",)) is Thing
    assert _model_at(Thing, ("part", "name")) is Part
    assert _model_at(Thing, ("parts", 0, "name")) is Part
    assert _model_at(Thing, ("by_key", "k", "name")) is Part
    assert _model_at(Thing, ("tags", "k")) is None
    assert _model_at(Thing, ("nothing", "x")) is None
    assert _model_at(Thing, ("id", "x", "y")) is None


def test_a_look_alike_key_hides_only_the_missing_field_it_stands_for() -> None:
    # a bad value of the field itself is still said, with the look-alike key beside it
    both = said({"part": {"name": "n", "size": "q", "s\u0456ze": 1}})
    assert [f for f, _ in both] == ["things[0].part.size", "things[0].part.s\u0456ze"]
    text = said({"part": {"name": 5, "n\u0430me": "x"}})
    assert [f for f, _ in text] == ["things[0].part.name", "things[0].part.n\u0430me"]
    # errors said before it do not stop the look-alike from standing for the missing field
    after = said({"kind": "zzz", "count": 0, "part": {"n\u0430me": "x"}})
    assert [f for f, _ in after] == ["things[0].kind", "things[0].count", "things[0].part.n\u0430me"]
    # a look-alike key in an earlier record does not hide a later record's missing field
    later = said({"parts": [{"n\u0430me": "x"}, {"size": 1}]})
    assert [f for f, _ in later] == ["things[0].parts[0].n\u0430me", "things[0].parts[1].name"]
