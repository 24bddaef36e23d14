"""Agora's bot: the session manager, storage, and the Discord and console front ends."""
