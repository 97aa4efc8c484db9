"""``python -m neuron_docs.benchmark_import SRC``: :func:`.command.main`."""

from .command import main

raise SystemExit(main())
