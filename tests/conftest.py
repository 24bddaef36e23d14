"""Shared test fixtures: the fake Discord (tests/fakediscord) for every end-to-end test."""

pytest_plugins = ("tests.fakediscord.fixtures",)
