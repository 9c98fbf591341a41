#!/bin/sh
# The committed generated files (headers, api_?.c, doc/api.md) must match
# tools/gen_api.py.  Skips (77) without python3.
[ -n "$PYTHON3" ] || PYTHON3=`command -v python3`
[ -n "$PYTHON3" ] || exit 77
exec "$PYTHON3" "${top_srcdir:-.}/tools/gen_api.py" --check "${top_srcdir:-.}"
