"""Not hostile at all: answers every `scoring` case right (the control for the others)."""

from _hostile import serve

serve("honest")
