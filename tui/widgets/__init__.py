"""The safe text widgets every tab shares: user text shown escaped, tokens coloured, keys drawn.

Modules are imported by name (``tui.widgets.safe_text``, ...); this file makes the directory a regular
package, so tools that read the import graph (``lint-imports``) see it.
"""
