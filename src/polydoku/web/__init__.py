"""The local web page and JSON API served by `polydoku serve` (needs the `web` extra:
Starlette and uvicorn). It must not solve anything itself: it calls what the CLI calls."""
