"""The drift checker's engine: figures and fit/support claims in prose matched against the data.

No Sphinx and no docutils here (a test reads the imports): the build's hook
(:mod:`neuron_docs.checks.drift`) and the ``make audit`` command (:mod:`.audit`) both call
:class:`.engine.DriftEngine`.
"""
