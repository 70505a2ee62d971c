"""Plays right, but on stop neither answers nor exits: it sleeps, deaf to polite signals."""

from _hostile import serve, sleep_forever

serve("ignore_stop", on_stop=sleep_forever)
