"""Claims to speak protocol 99."""

from _hostile import serve

serve("protocol_99", protocol=99)
