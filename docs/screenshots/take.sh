#!/bin/sh
# The window's pictures in docs/screenshots, taken from a real window under Xvfb (issue 27): for
# each screen size, the demo floor opened in a fresh data folder (no saved geometry: the first
# window takes the screen), left to play for PLAY seconds, then each view opened by its shortcut
# as a person would press it, and the whole screen taken with ImageMagick's import.
#   docs/screenshots/take.sh [SIZE ...]        (default: 1920x1080 1366x768; needs xvfb, xdotool, imagemagick)
set -eu
cd "$(dirname "$0")/../.."
OUT=docs/screenshots
PLAY=${PLAY:-45}
SIZES=${*:-"1920x1080 1366x768"}
for size in $SIZES; do
    home=$(mktemp -d)
    display=:$((90 + $$ % 9))
    Xvfb "$display" -screen 0 "${size}x24" -nolisten tcp >/dev/null 2>&1 &
    xvfb=$!
    sleep 2
    HOME="$home" PITDESK_HOME="$home/data" XDG_CONFIG_HOME="$home/config" DISPLAY="$display" \
        .venv/bin/pitdesk gui --demo --view floor >/dev/null 2>&1 &
    gui=$!
    sleep "$PLAY"
    win=$(DISPLAY="$display" xdotool search --onlyvisible --name pitdesk | head -1)
    shot() {   # shot NAME KEY...: press the keys on the window, wait, take the screen
        name=$1; shift
        DISPLAY="$display" xdotool windowfocus --sync "$win"
        for k in "$@"; do DISPLAY="$display" xdotool key "$k"; sleep 0.5; done
        sleep 3
        DISPLAY="$display" import -window root "$OUT/$name-$size.png"
    }
    # a floor supervisor signs in, as at the start of a shift (F9, name, Tab, PIN, Enter)
    DISPLAY="$display" xdotool windowfocus --sync "$win" key F9
    sleep 1
    DISPLAY="$display" xdotool type --delay 50 "demo-floor"
    DISPLAY="$display" xdotool key Tab
    DISPLAY="$display" xdotool type --delay 50 "2222"
    DISPLAY="$display" xdotool key Return
    sleep 2
    shot floor F2
    shot table-T1 F2 Home Return F3
    shot money-T1 ctrl+t
    shot round-entry F10
    shot alarms F4
    shot approvals F5
    shot meters ctrl+m
    shot logs ctrl+l
    shot hold ctrl+shift+h
    shot reports ctrl+shift+r
    shot ratings ctrl+shift+a
    shot protection ctrl+alt+p
    kill "$gui" 2>/dev/null || true
    wait "$gui" 2>/dev/null || true
    kill "$xvfb" 2>/dev/null || true
    rm -rf "$home"
done
