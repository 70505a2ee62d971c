"""The contract at the bottom: what the reference engine and the harness both stand on.

* ``notation``: tiles, connection points, placements and actions, with their text forms;
* ``players``: player counts, seats, sides and the deal convention;
* ``engine``: the ``Engine`` protocol, engine identity and the four levels;
* ``schemas``: the protocol's JSON Schemas, one loader, and the check of every message;
* ``shapes``: the one entry point of shape checks, compiled to Python with jsonschema behind;
* ``messages``: one typed class per protocol message, read and written by both sides;
* ``definitions``: ``common.json``, the one source of the notation's grammar and the ranges.

Nothing here imports ``fiveup.reference`` or ``fiveup.harness``; both import this.
"""
