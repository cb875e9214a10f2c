#!/bin/sh
# The client of the conformance harness's Skills scenarios (SEP-2640):
# the harness appends its server's URL. no-prefetch lists the skills and
# must read no file of them; the verify-* scenarios serve a tampered
# SKILL.md that mcpscope must read, reject, and read no further.
case "$MCP_CONFORMANCE_SCENARIO" in
*no-prefetch) exec mcpscope skills "$1" ;;
*) exec mcpscope skills --verify "$1" ;;
esac
