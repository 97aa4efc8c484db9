"""A hand-written page read from its source text (``drift/page_text.py``), on texts written in the test:
what inline markup shows and which spans of it were written by hand; passages (paragraphs, list
items, definitions, fields, admonitions' content) with their line and heading; headings of
reStructuredText, Markdown and plain text; what is skipped (code blocks, comments, literal blocks,
other directives); and the tables (``list-table``, ``csv-table``, grid, simple and pipe tables) with
the line of each cell and their header rows. No catalog, no Sphinx (``make mutation`` runs it with
``--noconftest`` per mutant: ``tests/MUTATION.md``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from neuron_docs.drift.page_text import Page, Table, inline, read_page
from neuron_docs.drift.passages import Passage
from neuron_docs.drift.tables import TextCell


def _passages(page: Page) -> list[tuple[int, str, str]]:
    return [(p.line, p.heading, p.text) for p in page.passages]


def _cells(table: Table) -> list[list[str]]:
    return [[c.text for c in row] for row in table.rows]


# --- inline markup ---------------------------------------------------------------------------------


def test_plain_text_is_shown_as_written_and_all_of_it_is_checked() -> None:
    assert inline("It takes 9 ms.") == ("It takes 9 ms.", [(0, 14)])
    assert inline("") == ("", [])


def test_a_role_shows_its_title_and_is_checked() -> None:
    assert inline("a :ref:`Inferentia <x>` b") == ("a Inferentia b", [(0, 2), (2, 12), (12, 14)])
    assert inline(":doc:`page`") == ("page", [(0, 4)])
    # A title before a target, then spaces; "~" and "!" dropped.
    assert inline(":ref:`Trn1  <t>  `") == ("Trn1", [(0, 4)])
    assert inline(":ref:`~a.b`") == ("a.b", [(0, 3)])
    assert inline(":ref:`!x`") == ("x", [(0, 1)])
    # The title is the text before the *last* target; a title spanning lines keeps its line end.
    assert inline(":ref:`a\nb <x>`") == ("a\nb", [(0, 3)])


def test_a_myst_role_shows_its_title() -> None:
    assert inline("{ref}`Trainium <y>` z") == ("Trainium z", [(0, 8), (8, 10)])
    assert inline("{code}`9 ms` z") == ("9 ms z", [(4, 6)])


def test_literal_roles_are_shown_but_not_checked() -> None:
    assert inline(":code:`9 ms` c") == ("9 ms c", [(4, 6)])
    assert inline(":func:`~a.b`") == ("a.b", [])
    # The role's name in any case.
    assert inline(":CODE:`9 ms`") == ("9 ms", [])
    assert inline("{Code}`9 ms`") == ("9 ms", [])
    for name in ("literal", "file", "command", "samp", "kbd", "math", "abbr", "py:func"):
        assert inline(f":{name}:`9 ms`") == ("9 ms", []), name


def test_an_inline_literal_is_shown_but_not_checked() -> None:
    assert inline("``9 ms`` q") == ("9 ms q", [(4, 6)])
    assert inline("x ``a\nb`` y") == ("x a\nb y", [(0, 2), (5, 7)])


def test_a_link_and_a_title_reference_are_checked() -> None:
    assert inline("`link <http://x>`_ w") == ("link w", [(0, 4), (4, 6)])
    assert inline("`anonymous <http://x>`__") == ("anonymous", [(0, 9)])
    assert inline("`title` t") == ("title t", [(0, 5), (5, 7)])


def test_substitutions_and_urls_are_shown_but_not_checked() -> None:
    assert inline("|sub| s") == ("|sub| s", [(5, 7)])
    assert inline("see https://a.b/9ms 9 ms") == ("see https://a.b/9ms 9 ms", [(0, 4), (19, 24)])


def test_a_link_spanning_lines_keeps_its_line_end() -> None:
    # The target on the next line: the link shows its text, and the line after it stays the next line.
    assert inline("`text\n<http://x>`_ 9 ms") == ("text\n 9 ms", [(0, 5), (5, 10)])
    # A neuron role spanning lines: blanked, its line end kept.
    assert inline("a :neuron:value:`run:x:\np90` b") == ("a " + " " * 10 + "\n b", [(0, 2), (13, 15)])


def test_neuron_roles_are_blank_without_their_figure() -> None:
    assert inline(":neuron:value:`run:x` d") == ("      d", [(5, 7)])
    assert inline(":NEURON:value:`abc` d") == ("    d", [(3, 5)])
    assert inline("{neuron:value}`ab` d") == ("   d", [(2, 4)])
    assert inline(":neuron:value:`Title <run:x>`") == ("     ", [])


def test_neuron_roles_show_their_figure_as_the_build_prints_it() -> None:
    asked: list[str] = []

    def shown(body: str) -> str | None:
        asked.append(body)
        return f"<{body}>"

    text, allowed = inline(":neuron:value:`p` and :neuron:compare:`q` and :neuron:other:`r`", shown)
    assert asked == ["p", "compare:q"]
    assert text == "<p> and <compare:q> and  "
    assert allowed == [(3, 8), (19, 24)]
    # A figure not known: blank, as long as the role's title.
    assert inline(":neuron:value:`abc`", lambda body: None) == ("   ", [])
    # In any case of the role's name, and as a MyST role.
    asked.clear()
    assert inline(":Neuron:Value:`p` {neuron:compare}`q`", shown)[0] == "<p> <compare:q>"
    assert asked == ["p", "compare:q"]


def test_the_name_of_a_role_is_read_from_the_role_not_from_a_myst_one() -> None:
    # A role and a MyST role side by side: each its own name.
    assert inline(":code:`a` {ref}`b` :ref:`c` {code}`d`") == ("a b c d", [(1, 2), (2, 3), (3, 4), (4, 5), (5, 6)])


# --- passages and headings -------------------------------------------------------------------------


def test_paragraphs_with_their_first_line_and_heading() -> None:
    page = read_page("Title\n=====\n\nFirst line\nsecond 9 ms.\n\nSection\n-------\n\nMore.\n")
    assert _passages(page) == [(4, "Title", "First line\nsecond 9 ms."), (10, "Section", "More.")]
    assert page.passages[0].allowed == ((0, 23),)
    assert page.tables == []


def test_a_heading_with_an_overline() -> None:
    page = read_page("=====\nTitle\n=====\n\nText.\n")
    assert _passages(page) == [(5, "Title", "Text.")]


def test_an_underline_under_two_lines_is_no_heading() -> None:
    page = read_page("One\nTwo\n=====\n\nText.\n")
    assert [p.heading for p in page.passages] == ["", ""]
    assert page.passages[0].text == "One\nTwo\n====="


def test_text_before_a_heading_has_no_heading_and_the_last_passage_is_kept() -> None:
    page = read_page("Intro 1 ms.\n\nTitle\n~~~~~\nLast 2 ms.")
    assert _passages(page) == [(1, "", "Intro 1 ms."), (5, "Title", "Last 2 ms.")]


def test_list_items_are_passages_of_their_own() -> None:
    page = read_page("* one\n* two\n  continued\n\n- x\n#. y\n3. z\n")
    assert _passages(page) == [(1, "", "* one"), (2, "", "* two\n  continued"), (5, "", "- x"), (6, "", "#. y"),
                               (7, "", "3. z")]


def test_a_definition_is_read_under_its_term() -> None:
    page = read_page("Hd\n===\n\nTerm :ref:`x`\n   Its definition 9 ms.\n   more.\n\nNext.\n")
    assert _passages(page) == [(4, "Hd", "Term x"), (5, "Hd\nTerm x", "   Its definition 9 ms.\n   more."),
                               (8, "Hd", "Next.")]


def test_what_is_no_definition() -> None:
    # A bullet followed by an indented line is a list item.
    assert _passages(read_page("* item\n  more\n")) == [(1, "", "* item\n  more")]
    # Not in Markdown nor plain text.
    assert _passages(read_page("Term\n   def\n", markdown=True)) == [(1, "", "Term\n   def")]
    assert _passages(read_page("Term\n   def\n", plain=True)) == [(1, "", "Term\n   def")]
    # A line indented as much as the one before continues the paragraph; two lines make no term.
    assert _passages(read_page("  a\n  b\n   c\n")) == [(1, "", "  a\n  b\n   c")]
    # Nor a line indented less than the one before.
    assert _passages(read_page("  a\nb\n")) == [(1, "", "  a\nb")]
    # A definition's own indented lines are not terms of further definitions.
    page = read_page("T\n  d\n    e\n")
    assert _passages(page) == [(1, "", "T"), (2, "\nT", "  d\n    e")]


def test_a_field_is_read_under_its_name() -> None:
    page = read_page("Hd\n===\n\n:Latency: 9 ms\n:Empty:\n:``Price``: $1\nafter\n")
    assert _passages(page) == [(4, "Hd\nLatency", "          9 ms"), (6, "Hd\nPrice", "            $1\nafter")]
    # The label ends with its passage.
    assert read_page(":A: 1 ms\n\nB 2 ms.\n").passages[1].heading == ""
    # A field list is reStructuredText only.
    assert _passages(read_page(":Latency: 9 ms\n", markdown=True)) == [(1, "", ":Latency: 9 ms")]
    assert _passages(read_page(":Latency: 9 ms\n", plain=True)) == [(1, "", ":Latency: 9 ms")]


def test_a_field_ends_the_paragraph_before_it() -> None:
    page = read_page("Para.\n:F: 1 ms\n")
    assert _passages(page) == [(1, "", "Para."), (2, "\nF", "    1 ms")]


def test_markdown_headings() -> None:
    page = read_page("# Title\n\nA.\n\n### Sub *x*\nB.\n####### no\n", markdown=True)
    assert _passages(page) == [(3, "Title", "A."), (6, "Sub *x*", "B.\n####### no")]
    # A Markdown heading ends the paragraph above it.
    assert _passages(read_page("A.\n## H\nB.\n", markdown=True)) == [(1, "", "A."), (3, "H", "B.")]


def test_plain_text_headings() -> None:
    text = "Results for Inferentia:\nLatency is 9 ms.\n\nOther line\nNot a heading:\n"
    page = read_page(text, plain=True)
    assert _passages(page) == [(2, "Results for Inferentia", "Latency is 9 ms."),
                               (4, "Results for Inferentia", "Other line\nNot a heading:")]
    # Not in reStructuredText.
    assert read_page(text).passages[0].heading == ""


def test_a_literal_block_is_skipped() -> None:
    page = read_page("Literal::\n\n   code 1 ms\n\n   more 2 ms\n\nAfter.\n")
    assert _passages(page) == [(1, "", "Literal::"), (7, "", "After.")]
    # An indented one, and its paragraph's other lines.
    page = read_page("  Some text\n  shown::\n\n     code 1 ms\n  Back 3 ms.\n")
    assert _passages(page) == [(1, "", "  Some text\n  shown::"), (5, "", "  Back 3 ms.")]
    # A directive is no literal block's paragraph.
    page = read_page(".. note:: see::\n\n   In 2 ms.\n")
    assert _passages(page) == [(3, "", "   In 2 ms.")]


def test_a_literal_block_at_the_end() -> None:
    assert _passages(read_page("End::\n")) == [(1, "", "End::")]


def test_prose_directives_are_read_and_others_skipped() -> None:
    text = (".. note::\n\n   A note at 9 ms.\n\n.. code-block:: python\n\n   x = 1 ms\n\n"
            ".. comment here\n   still 2 ms\n\n..\n   also 3 ms\n\n.. image:: x.png\n   :alt: 4 ms\n\nEnd.\n")
    page = read_page(text)
    assert _passages(page) == [(3, "", "   A note at 9 ms."), (18, "", "End.")]
    # No directive but a table's makes a table.
    assert page.tables == []
    for name in ("admonition", "code", "table", "figure", "only", "zzz"):
        assert read_page(f".. {name}::\n\n   a, 1 ms\n").tables == [], name
        assert read_page(f"```{{{name}}}\na, 1 ms\n```\n", markdown=True).tables == [], name


def test_a_prose_directive_in_any_case_and_indented() -> None:
    page = read_page("* item\n\n  .. Warning::\n     :class: x\n\n     Warned 9 ms.\n\n  Back.\n")
    assert _passages(page) == [(1, "", "* item"), (6, "", "   Warned 9 ms."), (8, "", "  Back.")]


def test_a_directive_ends_the_paragraph_before_it() -> None:
    page = read_page("Para 1.\n.. note:: Title 2 ms\n\n   Body.\n")
    assert [p.line for p in page.passages] == [1, 4]
    assert page.passages[0].text == "Para 1."


def test_myst_fences() -> None:
    text = ("# T\n\nPara 9 ms.\n\n```{note}\n:class: x\n\nFenced note 3 ms.\n```\n\n```python\ncode 4 ms\n```\n\n"
            "~~~{Warning}\nTilde 5 ms.\n~~~\n\n```{image} x.png\n:alt: 6 ms\n```\n\nAfter 7 ms.\n")
    page = read_page(text, markdown=True)
    assert _passages(page) == [(3, "T", "Para 9 ms."), (8, "T", "Fenced note 3 ms."), (16, "T", "Tilde 5 ms."),
                               (23, "T", "After 7 ms.")]


def test_a_fence_ends_the_paragraph_before_it_and_an_unclosed_one_the_page() -> None:
    page = read_page("Para.\n```\ncode 1 ms\n", markdown=True)
    assert _passages(page) == [(1, "", "Para.")]
    # A longer fence closes at its own mark.
    page = read_page("````\n```\ncode\n```\n````\nAfter.\n", markdown=True)
    assert _passages(page) == [(6, "", "After.")]


def test_a_fence_with_options_only_then_prose() -> None:
    page = read_page("```{note}\n:class: x\nIn 1 ms.\n```\nOut.\n", markdown=True)
    assert _passages(page) == [(3, "", "In 1 ms."), (5, "", "Out.")]


def test_a_passage_shows_its_figures_as_the_build_prints_them() -> None:
    page = read_page("It is :neuron:value:`run:x`.\n", shown_value=lambda body: "9.0 ms")
    assert page.passages[0].text == "It is 9.0 ms."
    assert page.passages[0].allowed == ((0, 6), (12, 13))


def test_a_passage_is_a_passage() -> None:
    page = read_page("A.\n")
    assert page.passages == [Passage("A.", 1, "", ((0, 2),))]


# --- tables ----------------------------------------------------------------------------------------


LIST_TABLE = """Heading
=======

.. list-table:: Caption
   :header-rows: 1
   :widths: 1 2

   * - Model
     - Latency (ms)
   * - BERT
     -
       9.5
   * - :ref:`GPT <x>`
     - 7 ms

       more
"""


def test_a_list_table() -> None:
    page = read_page(LIST_TABLE)
    assert page.passages == []
    (table,) = page.tables
    assert _cells(table) == [["Model", "Latency (ms)"], ["BERT", "9.5"], ["GPT", "7 ms\nmore"]]
    # A cell's line: where its text starts (the next line when the marker's line is empty).
    assert table.lines == [[8, 9], [10, 12], [13, 14]]
    assert table.header_rows == 1 and table.heading == "Heading"
    assert table.rows[2][0] == TextCell("GPT", ((0, 3),))


def test_a_list_table_without_header_rows() -> None:
    (table,) = read_page(".. list-table::\n\n   * - a\n     - b\n").tables
    assert table.header_rows == 0 and _cells(table) == [["a", "b"]] and table.lines == [[3, 4]]
    (table,) = read_page(".. list-table::\n   :header-rows:\n\n   * - a\n").tables
    assert table.header_rows == 0
    # Lines before the first row are no cell.
    (table,) = read_page(".. list-table::\n\n   text\n   - x\n   * -a\n   -b\n").tables
    assert _cells(table) == [["a", "b"]] and table.lines == [[5, 6]]


def test_a_list_table_cell_is_at_its_first_line_of_text() -> None:
    # Its marker's line blank: the next line, not the last of the cell's lines (nor any other cell's).
    text = ".. list-table::\n\n   * -\n       a\n       b\n     - c\n     -\n\n       9.5\n       ms\n"
    (table,) = read_page(text).tables
    assert _cells(table) == [["a\nb", "c", "9.5\nms"]]
    assert table.lines == [[4, 6, 9]]


def test_a_list_table_cell_with_text_on_its_marker_line_keeps_that_line() -> None:
    (table,) = read_page(".. list-table::\n\n   * - a\n       b\n").tables
    assert _cells(table) == [["a\nb"]] and table.lines == [[3]]


def test_a_csv_table() -> None:
    text = ('.. csv-table:: C\n   :header: "Model", "Price"\n   :header-rows: 1\n\n   BERT, $1.50\n\n'
            '   "A, B", 3 ms\n\nAfter.\n')
    page = read_page(text)
    (table,) = page.tables
    assert _cells(table) == [["Model", "Price"], ["BERT", "$1.50"], ["A, B", "3 ms"]]
    assert table.header_rows == 2
    assert table.lines == [[4, 4], [5, 5], [7, 7]]
    assert _passages(page) == [(9, "", "After.")]
    (table,) = read_page(".. csv-table::\n\n   a, :code:`b`\n").tables
    assert table.header_rows == 0 and table.rows == [[TextCell("a", ((0, 1),)), TextCell("b", ())]]


def test_a_csv_table_from_a_file_or_url_is_not_read() -> None:
    assert read_page(".. csv-table:: F\n   :file: x.csv\n\n   a, b\n").tables == []
    assert read_page(".. csv-table:: F\n   :url: http://x\n\n   a, b\n").tables == []
    md = "```{csv-table}\n:file: x.csv\n```\n\n```{csv-table}\n:url: u\n```\n"
    assert read_page(md, markdown=True).tables == []


def test_tables_of_myst_fences() -> None:
    text = ("# Title\n\n~~~{list-table}\n:header-rows: 1\n\n* - A\n  - B\n* - c\n  - 5 ms\n~~~\n\n"
            "```{CSV-table}\n:header: X, Y\n\na, 6 ms\n```\n")
    page = read_page(text, markdown=True)
    assert page.passages == []
    first, second = page.tables
    assert _cells(first) == [["A", "B"], ["c", "5 ms"]] and first.header_rows == 1
    assert first.lines == [[6, 7], [8, 9]] and first.heading == "Title"
    assert _cells(second) == [["X", "Y"], ["a", "6 ms"]] and second.header_rows == 1
    assert second.lines == [[13, 13], [15, 15]]


GRID = """+------+-------+
| Name | Value |
+======+=======+
| a    | 1 ms  |
|      | 2     |
+------+-------+
| * b  |       |
|      |       |
| #. c |       |
+------+-------+
| d    | x
+------+-------+
"""


def test_a_grid_table() -> None:
    page = read_page("Hd\n===\n\n" + GRID + "\nAfter.\n")
    (table,) = page.tables
    assert _cells(table) == [["Name", "Value"], ["a", "1 ms\n2"], ["b\nc", ""], ["d", "x"]]
    assert table.header_rows == 1 and table.heading == "Hd"
    # A cell's line is its first line with text; an empty cell's is its row's closing border.
    assert table.lines == [[5, 5], [7, 7], [10, 13], [14, 14]]
    assert _passages(page) == [(17, "Hd", "After.")]


def test_a_grid_table_without_header_and_a_short_line() -> None:
    (table,) = read_page("+---+---+\n| a | b |\n|\n+---+---+\n").tables
    assert _cells(table) == [["a", "b"]] and table.header_rows == 0 and table.lines == [[2, 2]]
    # An empty row between borders is no row.
    (table,) = read_page("+---+\n+---+\n| a |\n+===+\n| b |\n+---+\n").tables
    assert _cells(table) == [["a"], ["b"]] and table.header_rows == 1


def test_a_grid_table_ends_at_the_page_end() -> None:
    (table,) = read_page("+---+\n| a |\n+---+").tables
    assert _cells(table) == [["a"]]


SIMPLE = """=====  =====  ======
Col A  Col B  Col C
=====  =====  ======
x      1 ms   long text
       2 ms
y      3      :code:`4`

z      5      6
=====  =====  ======

After.
"""


def test_a_simple_table() -> None:
    page = read_page(SIMPLE)
    (table,) = page.tables
    assert _cells(table) == [["Col A", "Col B", "Col C"], ["x", "1 ms\n2 ms", "long text"], ["y", "3", "4"],
                             ["z", "5", "6"]]
    assert table.header_rows == 1
    assert table.lines == [[2, 2, 2], [4, 4, 4], [6, 6, 6], [8, 8, 8]]
    assert table.rows[2][2] == TextCell("4", ())
    assert _passages(page) == [(11, "", "After.")]


def test_a_simple_table_without_header_and_at_the_page_end() -> None:
    (table,) = read_page("==  ==\na   b\nc   d\n==  ==").tables
    assert _cells(table) == [["a", "b"], ["c", "d"]] and table.header_rows == 0
    # No closing border at all.
    (table,) = read_page("==  ==\na   b\n").tables
    assert _cells(table) == [["a", "b"]] and table.header_rows == 0 and table.lines == [[2, 2]]
    (table,) = read_page("==  ==\na   b\n==  ==\nc   d\n").tables
    assert _cells(table) == [["a", "b"], ["c", "d"]] and table.header_rows == 0
    (table,) = read_page("==  ==\na   b\n==  ==\nc   d\n==  ==\n").tables
    assert table.header_rows == 1


def test_a_border_before_a_blank_line_is_no_table() -> None:
    page = read_page("=====  =====\n\nText.\n")
    assert page.tables == [] and _passages(page) == [(1, "", "=====  ====="), (3, "", "Text.")]
    page = read_page("+---+\n\n| a |\n")
    assert page.tables == []
    # The blank line the page's last.
    assert read_page("=====  =====\n\n").tables == []


def test_a_border_inside_a_paragraph_is_no_table() -> None:
    page = read_page("Para\n+---+\n| a |\n+---+\n")
    assert page.tables == []


PIPE = """# T

| A | B |
|---|:---:|
| p | 4 ms |
| q | :code:`5` |
After.
"""


def test_a_pipe_table() -> None:
    page = read_page(PIPE, markdown=True)
    (table,) = page.tables
    assert _cells(table) == [["A", "B"], ["p", "4 ms"], ["q", "5"]]
    assert table.header_rows == 1 and table.heading == "T"
    assert table.lines == [[3, 3], [5, 5], [6, 6]]
    assert table.rows[2][1] == TextCell("5", ())
    assert _passages(page) == [(7, "T", "After.")]


def test_what_is_no_pipe_table() -> None:
    # No separator after the first row, or a row inside a paragraph.
    assert read_page("| A | B |\n| p | q |\n", markdown=True).tables == []
    assert read_page("Para\n| A |\n|---|\n", markdown=True).tables == []
    # A row at the page's end.
    assert read_page("| A |", markdown=True).tables == []
    (table,) = read_page("| A |\n|---|", markdown=True).tables
    assert _cells(table) == [["A"]]


def test_a_pipe_table_row_of_its_own_width() -> None:
    (table,) = read_page("| A | B |\n|---|---|\n| p |\n| q | r | s |\n", markdown=True).tables
    assert _cells(table) == [["A", "B"], ["p"], ["q", "r", "s"]]
    assert table.lines == [[1, 1], [3], [4, 4, 4]]


def test_an_escaped_pipe_stays_in_its_cell() -> None:
    (table,) = read_page("| A | B |\n|---|---|\n| q \\| r | 5 |\n", markdown=True).tables
    assert _cells(table)[1] == ["q \\| r", "5"]


def test_an_indented_grid_table() -> None:
    (table,) = read_page("  +---+----+\n  | a | bb |\n  +---+----+\n").tables
    assert _cells(table) == [["a", "bb"]] and table.lines == [[2, 2]]


def test_a_simple_table_whose_first_cell_is_blank() -> None:
    (table,) = read_page("=====  =====\n       a\nb      c\n=====  =====\n").tables
    assert _cells(table) == [["", "a"], ["b", "c"]] and table.lines == [[2, 2], [3, 3]]


def test_a_simple_tables_continuation_line_joins_the_row_above_it() -> None:
    # Under the third row, not the second: the row above is the last one, whatever its place.
    (table,) = read_page("==  ==\na   1\nb   2\nc   3\n    4\n==  ==\n").tables
    assert _cells(table) == [["a", "1"], ["b", "2"], ["c", "3\n4"]] and table.lines == [[2, 2], [3, 3], [4, 4]]
    # A row whose last cell is blank is a row of its own: only a blank first cell continues one.
    (table,) = read_page("==  ==\na   1\nb\n==  ==\n").tables
    assert _cells(table) == [["a", "1"], ["b", ""]] and table.lines == [[2, 2], [3, 3]]


def test_a_csv_tables_empty_header_rows_and_content_after_its_options() -> None:
    (table,) = read_page(".. csv-table::\n   :header-rows:\n\n   a, b\n").tables
    assert table.header_rows == 0
    # After the options and a blank line, a line like an option is content.
    (table,) = read_page(".. csv-table::\n   :header-rows: 0\n\n   :x: 1, 2\n   a, b\n").tables
    assert _cells(table) == [[":x: 1", "2"], ["a", "b"]] and table.lines == [[4, 4], [5, 5]]


def test_an_indented_directive_ends_at_a_line_less_indented() -> None:
    page = read_page("* item\n\n  .. code-block::\n\n     x 1 ms\n\nBack 2 ms.\n")
    assert _passages(page) == [(1, "", "* item"), (7, "", "Back 2 ms.")]


def test_an_unclosed_prose_fence_of_options_only() -> None:
    page = read_page("```{note}\n:class: x", markdown=True)
    assert page.passages == [] and page.tables == []


def test_a_border_on_the_last_line_is_an_empty_table() -> None:
    for border in ("=====  =====", "+---+"):
        page = read_page(f"Text.\n\n{border}")
        assert _passages(page) == [(1, "", "Text.")]
        assert page.tables == [Table([], [], 0, "")]


def test_a_literal_marker_without_a_literal_block() -> None:
    assert _passages(read_page("End::\nNext 1 ms.\n")) == [(1, "", "End::"), (2, "", "Next 1 ms.")]


_ENDINGS = [".. note::\n\n   Note 1 ms.\n", ".. list-table::\n   :header-rows: 1\n", "Hd\n===\n\n" + GRID,
            "==  ==\na   b\n", "| A |\n|---|\n| b |", "```\ncode\n", "```{note}\n:class: x\n",
            "Literal::\n\n   code\n", ":F: 1 ms\nTerm\n  def\n", ".. csv-table::\n\n   a, b", "| lone |",
            "==  ==\na   b\n==  ==", "Text.\n\n+---+"]


def test_a_long_page_reads_its_end_as_a_short_one() -> None:
    # Past 256 lines (line numbers no longer small cached ints): the constructs ending a page read alike.
    prefix = "P.\n\n" * 150
    for ending in _ENDINGS:
        short, long = read_page(ending, markdown=ending.startswith(("|", "`"))), \
            read_page(prefix + ending, markdown=ending.startswith(("|", "`")))
        assert _passages(long)[150:] == [(n + 300, h, t) for n, h, t in _passages(short)], ending
        assert [(_cells(t), t.lines, t.header_rows) for t in long.tables] == \
            [(_cells(t), [[n + 300 for n in row] for row in t.lines], t.header_rows) for t in short.tables], ending


def test_a_simple_tables_last_column_runs_to_the_line_end_past_256_columns() -> None:
    border = " ".join(["="] * 300)
    (table,) = read_page(f"{border}\n{' '.join(['a'] * 299)} last-one\n{border}\n").tables
    assert _cells(table) == [["a"] * 299 + ["last-one"]]


def test_a_grid_cell_without_padding() -> None:
    (table,) = read_page("+---+--+\n|abc|de|\n+---+--+\n").tables
    assert _cells(table) == [["abc", "de"]]


def test_a_directive_without_content_ends_at_the_next_line() -> None:
    page = read_page(".. image:: x.png\nNext 1 ms.\n\n..\nAfter 2 ms.\n")
    assert _passages(page) == [(2, "", "Next 1 ms."), (5, "", "After 2 ms.")]


def test_an_empty_fence_and_the_options_by_name_only() -> None:
    assert _passages(read_page("```\n```\nAfter 1 ms.\n", markdown=True)) == [(3, "", "After 1 ms.")]
    with pytest.raises(TypeError):
        read_page("x", True)  # type: ignore[misc]


# --- properties (last: the slowest) ---------------------------------------------------------------


@given(st.text(alphabet="ab9 .,\n", max_size=40))
@settings(max_examples=15, deadline=None)
def test_text_without_markup_is_shown_whole(text: str) -> None:
    assert inline(text) == (text, [(0, len(text))] if text else [])


_PIECES = st.sampled_from(["a ", "9 ms", ":ref:`T <x>`", ":code:`1 s`", "``lit``", "`l <u>`_", "`t`", "|s|",
                           "http://x.y ", ":neuron:value:`v`", "{ref}`m`", "\n", ", "])


@given(st.lists(_PIECES, max_size=8))
@settings(max_examples=20, deadline=None)
def test_checked_spans_are_in_order_inside_the_text_and_never_empty(pieces: list[str]) -> None:
    text, allowed = inline("".join(pieces))
    end = 0
    for a, b in allowed:
        assert end <= a < b <= len(text)
        end = b
    # The text has as many line ends as the source.
    assert text.count("\n") == "".join(pieces).count("\n")


@given(st.lists(st.text(alphabet="abc 9", min_size=1, max_size=12).map(str.strip).filter(bool), min_size=1,
                max_size=6))
@settings(max_examples=15, deadline=None)
def test_paragraphs_of_prose_are_passages_at_their_lines(paragraphs: list[str]) -> None:
    text = "\n\n".join(paragraphs) + "\n"
    page = read_page(text)
    assert _passages(page) == [(1 + 2 * k, "", p) for k, p in enumerate(paragraphs)]
    assert page.tables == []
