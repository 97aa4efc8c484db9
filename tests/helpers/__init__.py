"""What the tests share, one copy of each, a module per concern (README.md: "The tests' toolkit"):

- :mod:`helpers.paths`: where the repository, its data, the frozen data and the test roots are; copies of them.
- :mod:`helpers.edits`: edits a test makes to a copy of the data, as a maintainer would (YAML, CSV).
- :mod:`helpers.site`: the real site built with Sphinx's API (:func:`~helpers.site.build_site`).
- :mod:`helpers.html`: reading built pages (parsed with BeautifulSoup and lxml).
- :mod:`helpers.warnings`: build warnings as plain text, without what is noise to a test.
- :mod:`helpers.params`: catalogues of cases as pytest parameters.
- :mod:`helpers.watchdog`: a guard that fails a test rather than let it hang.
- :mod:`helpers.git`: git run in a throw-away repository with a fixed identity and date.
- :mod:`helpers.snapshots`: doctrees as stable text, compared with stored snapshots or written anew.
- :mod:`helpers.numbers`: the number a printed figure shows, and equality of two such numbers.

The fixtures stay in ``tests/conftest.py``; a test module imports these by name
(``from helpers.paths import DATA``), never from ``conftest``.
"""
