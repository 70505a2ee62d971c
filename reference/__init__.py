"""The reference engine of Five Up: the executable form of the spec, pure Python.

Modules, from the bottom up:

* ``tiles``: tiles, connection points, placements and actions, with their text forms;
* ``scoring``: credit, displayed points, penalties and the paper tally (SCR, PTS, PEN, TAL);
* ``layout``: the table, with the spinner rule and the counting rule as two pure functions
  (LAY, SPN, CNT);
* ``round``: one round from the deal to going out or a block (SET, TRN, DRW, END, PEN);
* ``match``: rounds in sequence, openers and the target (OPN, MAT);
* ``engine``: the protocol front end (``ReferenceEngine``);
* ``bench``: the speed of random rounds and matches (``fiveup bench``).
"""
