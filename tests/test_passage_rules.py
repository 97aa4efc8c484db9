"""Passages of prose and their context (``drift/passages.py``), on texts written in the test: the words
of a text (lower case, with the parts of dotted and hyphenated words and the hyphenated word joined),
sentence spans, the clause holding an offset, the context of an offset (its sentence, the one before
and the heading) and the line of an offset. No catalog, no Sphinx (``make mutation`` runs it with
``--noconftest`` per mutant: ``tests/MUTATION.md``)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from neuron_docs.drift.passages import Passage, clause_of, context_words, sentences, words


def test_the_words_of_a_text() -> None:
    assert words("BERT base") == {"bert", "base"}
    assert words("ResNet-50 on inf2.xlarge") == {"resnet-50", "resnet50", "resnet", "50", "on", "inf2.xlarge",
                                                 "inf2", "xlarge"}
    assert words("v1.2-rc3") == {"v1.2-rc3", "v1.2rc3", "v1", "2", "rc3"}
    assert words("a, b; c!") == {"a", "b", "c"}
    assert words("") == set()


def test_sentence_spans() -> None:
    text = "One is here. Two (too)! Three?\n\nfour."
    assert sentences(text) == [(0, 12), (13, 23), (24, 30), (32, 37)]
    assert [text[a:b] for a, b in sentences(text)] == ["One is here.", "Two (too)!", "Three?", "four."]
    # No new sentence before a lower-case word.
    assert sentences("It is 1.5 ms. then more") == [(0, 23)]
    assert sentences("") == [(0, 0)]


def test_the_clause_holding_an_offset() -> None:
    text = "It is fast; it is cheap, and it is small but costly"
    #       0         1         2         3         4         5
    assert clause_of(text, 0, len(text), 3) == (0, 10)
    assert clause_of(text, 0, len(text), 14) == (11, 23)
    assert clause_of(text, 0, len(text), 30) == (29, 40)
    assert clause_of(text, 0, len(text), 47) == (45, 51)


def test_a_cut_at_the_offset() -> None:
    text = "aa; bb; cc; dd"
    # An offset right after a cut is in the clause after it, one at a cut in the clause before it.
    assert clause_of(text, 0, len(text), 3) == (3, 6)
    assert clause_of(text, 0, len(text), 2) == (0, 2)
    # The first cut after the offset ends its clause, whatever cuts come later.
    assert clause_of(text, 0, len(text), 0) == (0, 2)
    assert clause_of(text, 0, len(text), 4) == (3, 6)


def test_the_clause_of_a_sentence_inside_a_text() -> None:
    text = "xx; yy. It is fast; it is cheap. zz; ww"
    assert clause_of(text, 8, 32, 10) == (8, 18)
    assert clause_of(text, 8, 32, 25) == (19, 32)
    assert clause_of(text, 8, 32, 8) == (8, 18)
    assert clause_of(text, 8, 18, 10) == (8, 18)


TEXT = "Alpha one.  Beta two. Gamma three."
#       0123456789012345678901234567890123
#       spans: (0, 10), (12, 21), (22, 34)


def test_the_context_of_an_offset_is_its_sentence_the_one_before_and_the_heading() -> None:
    assert sentences(TEXT) == [(0, 10), (12, 21), (22, 34)]
    assert context_words(TEXT, 0) == {"alpha", "one"}
    assert context_words(TEXT, 14) == {"alpha", "one", "beta", "two"}
    assert context_words(TEXT, 25) == {"beta", "two", "gamma", "three"}
    assert context_words(TEXT, 25, "The Heading") == {"beta", "two", "gamma", "three", "the", "heading"}


def test_the_context_at_the_edges_of_sentences() -> None:
    # The start and the end of a sentence are in it.
    assert context_words(TEXT, 12) == {"alpha", "one", "beta", "two"}
    assert context_words(TEXT, 10) == {"alpha", "one"}
    assert context_words(TEXT, 22) == {"beta", "two", "gamma", "three"}
    assert context_words(TEXT, 21) == {"alpha", "one", "beta", "two"}
    # Between two sentences (the second space), and past the end: the last sentence's.
    assert context_words(TEXT, 11) == {"beta", "two", "gamma", "three"}
    assert context_words(TEXT, 99) == {"beta", "two", "gamma", "three"}
    two = "Alpha one.  Beta two."
    assert context_words(two, 11) == {"alpha", "one", "beta", "two"}


def test_the_context_with_spans_given() -> None:
    spans = [(0, 5), (6, 21), (22, 34)]  # not the text's own sentences
    assert context_words(TEXT, 7, spans=spans) == {"alpha", "one", "beta", "two"}
    assert context_words(TEXT, 2, spans=spans) == {"alpha"}
    assert context_words(TEXT, 30, spans=[(22, 34)]) == {"gamma", "three"}


def test_the_line_of_an_offset() -> None:
    passage = Passage("\nfirst\nsecond\n\nthird", 10)
    assert [passage.line_of(i) for i in (0, 1, 6, 7, 13, 14, 15, 20)] == [10, 11, 11, 12, 12, 13, 14, 14]
    assert (passage.heading, passage.allowed) == ("", None)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from(["Aa b.", "Cc d!", "e f", "; ", ", ", " and ", "\n\n", " "]), max_size=12))
def test_sentences_cover_the_text_in_order_and_clauses_stay_in_them(parts: list[str]) -> None:
    text = "".join(parts)
    spans = sentences(text)
    assert spans[0][0] == 0
    assert spans[-1][1] == len(text)
    for (a, b), (c, _) in zip(spans, spans[1:], strict=False):
        assert a <= b <= c
        assert text[b:c].strip() == ""
    for a, b in spans:
        for at in range(a, b + 1):
            low, high = clause_of(text, a, b, at)
            assert a <= low <= at <= high <= b or a <= low <= high <= at
