"""How a model's name is compared: one key per name, the rule written once.

People write one model many ways: ``meta-llama/Meta-Llama-3-8B``, ``Llama 3 8B``, ``llama-3-8b``,
``LLAMA3 8b``. :func:`name_key` reduces a name to the key the identities of
:mod:`neuron_docs.data.figures.identity` are looked up by, and the validation compares aliases by
(two models whose names give one key are an error). The rule, which the advisor's script applies to
what a reader types (:data:`KEY_RULE`, shipped with the keys computed here):

1. Unicode compatibility form (NFKC) and lower case: ``８B`` and ``8B`` are ``8b``;
2. a Hugging Face organisation is dropped: a leading ``org/`` (no space in it) followed by a letter,
   so ``google/vit-base-patch16-224`` is ``vit-base-patch16-224`` but ``ViT-B/16`` keeps its ``/16``;
3. only letters and digits stay: spaces, hyphens, dots, underscores and other punctuation go, so
   sizes compare however they are spaced (``8B``, ``8 B``, ``8-b``) and ``Llama 3.1`` is ``llama31``.
"""

from __future__ import annotations

import re
import unicodedata

#: A Hugging Face organisation prefix: one segment without spaces, a slash, then a letter.
ORGANISATION = re.compile(r"^[\w.\-]+/(?=[^\W\d_])")
#: The rule in words, for the page that ships the keys (and the script that applies it).
KEY_RULE = ("NFKC, lower case, a leading 'organisation/' dropped when a letter follows the slash, "
            "then letters and digits only")


def name_key(name: str) -> str:
    """The key of a name (see the module's docstring); "" for a name without letters or digits."""
    text = unicodedata.normalize("NFKC", name).lower().strip()
    text = ORGANISATION.sub("", text)
    return "".join(ch for ch in text if ch.isalnum())
