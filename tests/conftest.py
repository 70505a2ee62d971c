"""Shared test set-up: pytester drives the pytest plugin in its own tests."""

pytest_plugins = ["pytester"]
