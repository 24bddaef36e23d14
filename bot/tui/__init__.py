"""The full-screen terminal app (Textual) that `agora play` opens in a terminal; line mode (bot/console.py)
is its plain fallback for piped input and scripts."""
