"""Sphinx configuration of the Neuron model support & performance site.

Pages live in ``source/``; build with ``make html`` (``sphinx-build -c . source build/html``).
"""

from __future__ import annotations

import os
import platform
import sys
import tomllib
from pathlib import Path
from urllib.parse import urlsplit

from packaging.specifiers import SpecifierSet

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "_ext"))

#: The supported Pythons are stated once, in pyproject.toml's ``requires-python``; an older one stops
#: here with that statement rather than somewhere inside Sphinx or pip.
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
PYTHONS = PROJECT["requires-python"]
if platform.python_version() not in SpecifierSet(PYTHONS):
    raise RuntimeError(f"this site needs Python {PYTHONS} (pyproject.toml's requires-python: Sphinx 9.2 "
                       f"needs 3.13); this is Python {platform.python_version()}")

project = "Neuron Model Support & Performance"
author = "Neuron documentation team"
copyright = "2022-2026, the Neuron documentation authors"  # noqa: A001
#: The ePub and PDF title pages print it (the ePub needs one); pyproject.toml holds it.
version = release = PROJECT["version"]

extensions = [
    "neuron_docs",
    "myst_parser",
    "sphinx_design",
    "sphinx_copybutton",
    "notfound.extension",
    "sphinx_sitemap",
]

neuron_data_dir = "data"
#: Device pages and the devices overview are generated from the data into source/devices/
#: (git-ignored) before reading; hand-written prose per device lives in source/_devices/.
neuron_device_pages = "devices"
#: One performance page per instance generation and kind of the published tables, generated into
#: source/performance/ (git-ignored); hand-written prose per page lives in source/_performance/.
neuron_performance_pages = "performance"
# One generated page per revision of the support matrices (data/matrix/), under source/matrix/.
neuron_revision_pages = "matrix"

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
myst_enable_extensions = ["colon_fence", "deflist"]
root_doc = "index"
exclude_patterns = ["_build"]
nitpicky = True
suppress_warnings: list[str] = []

html_theme = "furo"
html_title = project
#: "Last updated" dates come from the data (a "Data last updated" line on each page that reads
#: dated data, and each matrix's "Last update"), not from the time of the build.
html_last_updated_fmt = None
html_favicon = "_ext/neuron_docs/render/static/neuron-favicon.svg"
# The search: a model's advisor answer, performance rows and history first, each page once.
html_search_scorer = "_ext/neuron_docs/render/search-scorer.js"
html_theme_options = {
    "navigation_with_keys": True,
    "sidebar_hide_name": False,
    "light_css_variables": {"color-brand-primary": "#1f5fa8", "color-brand-content": "#1f5fa8"},
    "dark_css_variables": {"color-brand-primary": "#7db4f0", "color-brand-content": "#7db4f0"},
}

#: The site's canonical address (sitemap, 404 page links): Read the Docs sets
#: READTHEDOCS_CANONICAL_URL; NEURON_DOCS_BASEURL overrides it elsewhere.
html_baseurl = (os.environ.get("NEURON_DOCS_BASEURL") or os.environ.get("READTHEDOCS_CANONICAL_URL")
                or "https://neuron-model-support.readthedocs.io/en/latest/")
if not html_baseurl.endswith("/"):
    html_baseurl += "/"
sitemap_url_scheme = "{link}"
sitemap_excludes = ["search.html", "genindex.html", "404.html"]

#: sphinx-notfound-page: absolute links on the 404 page, wherever the missing URL was.
notfound_urls_prefix = urlsplit(html_baseurl).path or "/"
notfound_context = {
    "title": "Page not found",
    "body": (
        "<h1>Page not found</h1>"
        "<p>The page you asked for is not here: it may have moved when the site was reorganised.</p>"
        "<p>Use the search box, or start again from the home page to find a device, an instance type "
        "or a model family (search also finds representative models, such as BERT).</p>"
    ),
}

#: Greek letters in the data's text (a model named "PixArt-α", a source "PixArt-Σ"): pdflatex has no
#: glyph for them in the text fonts, so each is its math symbol (an upright capital that looks Latin
#: is that Latin letter). Every letter, so that the next name with one builds too.
_GREEK_LOWER = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi o pi rho varsigma "
                "sigma tau upsilon phi chi psi omega").split()  # U+03B1 to U+03C9
_GREEK_UPPER = "A B Gamma Delta E Z H Theta I K Lambda M N Xi O Pi P - Sigma T Upsilon Phi X Psi Omega".split()


def _greek(first: int, names: list[str]) -> str:
    """``\\DeclareUnicodeCharacter`` for each letter from code point ``first`` on ("-": none there)."""
    out = []
    for offset, name in enumerate(names):
        if name != "-":
            symbol = "\\" + name if len(name) > 1 else f"\\mathrm{{{name}}}" if name.isupper() else name
            out.append(f"\\DeclareUnicodeCharacter{{{first + offset:04X}}}{{\\ensuremath{{{symbol}}}}}")
    return "".join(out)


_GREEK = _greek(0x3B1, _GREEK_LOWER) + _greek(0x391, _GREEK_UPPER)

#: The PDF (``make pdf``): tables a size smaller than the text, so that wide ones fit on the page
#: (neuron_docs.site.latex_tables splits the widest and sizes their columns by their content). The
#: contents page is "Contents" (Sphinx names it after the first toctree caption; each caption is a
#: part: neuron_docs.site.front_matter).
latex_elements = {
    "preamble": r"\AtBeginEnvironment{tabulary}{\small}\AtBeginEnvironment{longtable}{\small}"
                r"\AtBeginEnvironment{tabular}{\small}"
                r"\makeatletter\AtBeginDocument{\spx@image@maxheight=.8\textheight}\makeatother" + _GREEK,
    "tableofcontents": r"\renewcommand{\contentsname}{Contents}\sphinxtableofcontents",
    # A chart where it is, never a float queued behind a table breaking across pages (a float and a
    # longtable's page make an overfull page); an image and its caption within a page.
    "figure_align": "H",
}

#: sphinx-copybutton: leave prompts and outputs out of what is copied.
copybutton_exclude = ".linenos, .gp, .go"
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True

# The theme's layout around wide tables is for web pages only (render/assets.py does not link it in an
# ePub); it stays out of the book, whose checker's CSS parser does not know :has().
epub_exclude_files = ["_static/neuron-layout.css"]
