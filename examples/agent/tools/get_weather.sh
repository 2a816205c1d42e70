#!/bin/sh
# Stand-in tool: the arguments arrive as JSON on stdin and in
# $TOOLCALL_ARGUMENTS (never on the command line).
city=$(printf '%s' "$TOOLCALL_ARGUMENTS" | sed -n 's/.*"city": *"\([^"]*\)".*/\1/p')
printf '%s: sunny, 21 °C\n' "${city:-somewhere}"
