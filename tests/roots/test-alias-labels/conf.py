"""Two pages naming the same models, the second read slowly: in a parallel build (one page per
worker) it is merged last, so a label given at read time would follow the merge order.

The tests set ``neuron_data_dir`` through ``confoverrides``.
"""

import time

extensions = ["neuron_docs"]


def _read_b_slowly(app, docname, source):
    if docname == "b":
        time.sleep(1.5)


def setup(app):
    app.connect("source-read", _read_b_slowly)
