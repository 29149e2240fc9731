"""The Train tab: the corpus, the settings form, the run, the step list and the step detail.

Modules are imported by name (``tui.train.pane``, ``tui.train.step_table``, ...); this file makes the
directory a regular package, so tools that read the import graph (``lint-imports``) see it.
"""
