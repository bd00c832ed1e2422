"""``python -m canasta``: the same as the ``canasta`` command."""

from .cli import main

raise SystemExit(main())
