#!/bin/sh
exec uv run pytest -q
