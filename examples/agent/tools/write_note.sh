#!/bin/sh
# Stand-in tool with side effects in real life (risk high): here it only
# says what it would write.
input=$(cat)
printf 'saved note %s\n' "$input"
