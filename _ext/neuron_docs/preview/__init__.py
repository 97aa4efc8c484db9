"""Pull-request previews: what a change to ``data/`` changes on the site.

:mod:`.model` is the change model of a preview build, :mod:`.marks` marks changed places on the
pages, :mod:`.report` holds the sections of a diff rendered as the preview page (:mod:`.page`) and
as the Markdown/JSON report of ``make matrix-diff`` (:mod:`.matrix_diff`); :mod:`.build` wires them
into the build.
"""
