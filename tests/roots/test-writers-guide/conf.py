"""The writer's guide's example pages (README.md, "Writer's guide"), one in each syntax, built strictly."""

extensions = ["neuron_docs", "myst_parser", "sphinx_design"]
nitpicky = True
myst_enable_extensions = ["colon_fence"]
