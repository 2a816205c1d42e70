#!/bin/sh
# Stand-in tool that prints 100 MB: its result is capped.
head -c 100000000 /dev/zero | tr '\0' 'x'
