#!/bin/sh
# Stand-in tool that fails: exit status 3 and a message on stderr.
echo "disk full" >&2
exit 3
