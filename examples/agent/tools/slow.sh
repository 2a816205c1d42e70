#!/bin/sh
# Stand-in tool that never finishes in time (x-toolcall.timeout_s is 1).
sleep 30
echo "too late"
