#!/bin/sh
# Install CV RAG Desktop from this folder with no network: a virtualenv, the pinned wheels
# (requirements.lock, every hash checked), launchers in ~/.local/bin and a desktop entry.
#
#   ./install.sh [--prefix DIR] [--python PYTHON] [--no-desktop]
#
# DIR defaults to ~/.local/share/cvrag-desktop (the virtualenv is DIR/venv). Needs Python 3.11
# with venv (Debian/Ubuntu: python3-venv). Uninstall: rm -r DIR ~/.local/bin/cvrag ~/.local/bin/cvrag-desktop
# ~/.local/share/applications/cvrag-desktop.desktop (your data folder is not touched).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
PREFIX="${CVRAG_PREFIX:-$HOME/.local/share/cvrag-desktop}"
PYTHON="${PYTHON:-python3}"
DESKTOP=1
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) PREFIX="$2"; shift 2 ;;
    --python) PYTHON="$2"; shift 2 ;;
    --no-desktop) DESKTOP=0; shift ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
done
WANT=$(sed -n 's/.*for Python \([0-9.]*\) on.*/\1/p' "$HERE/requirements.lock" | head -n1)
HAVE=$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null) || {
  echo "install.sh: $PYTHON not found; install Python $WANT (with venv) or pass --python" >&2; exit 1; }
if [ -n "$WANT" ] && [ "$HAVE" != "$WANT" ]; then
  echo "install.sh: these wheels are for Python $WANT, but $PYTHON is $HAVE; pass --python python$WANT" >&2
  exit 1
fi
VENV="$PREFIX/venv"
echo "Installing CV RAG Desktop into $VENV (offline, from $HERE)"
"$PYTHON" -m venv "$VENV" || { echo "install.sh: could not create a virtualenv (Debian/Ubuntu: apt install python3-venv)" >&2; exit 1; }
# Only this folder: no index, no user/site pip configuration, no other find-links.
PIP_CONFIG_FILE=/dev/null PIP_NO_INDEX=1 PIP_FIND_LINKS= PIP_INDEX_URL= PIP_EXTRA_INDEX_URL= \
  "$VENV/bin/python" -m pip install --quiet --no-index --find-links "$HERE" --require-hashes \
  --disable-pip-version-check -r "$HERE/requirements.lock"
mkdir -p "$HOME/.local/bin"
ln -sf "$VENV/bin/cvrag" "$HOME/.local/bin/cvrag"
ln -sf "$VENV/bin/cvrag-desktop" "$HOME/.local/bin/cvrag-desktop"
if [ "$DESKTOP" = 1 ]; then
  APPS="${XDG_DATA_HOME:-$HOME/.local/share}/applications"
  mkdir -p "$APPS" "$PREFIX"
  cp "$HERE/cvrag-desktop.svg" "$PREFIX/cvrag-desktop.svg"
  sed -e "s|^Exec=.*|Exec=$VENV/bin/cvrag-desktop|" -e "s|^Icon=.*|Icon=$PREFIX/cvrag-desktop.svg|" \
    "$HERE/cvrag-desktop.desktop" > "$APPS/cvrag-desktop.desktop"
  command -v update-desktop-database >/dev/null && update-desktop-database "$APPS" 2>/dev/null || true
  echo "Desktop entry: $APPS/cvrag-desktop.desktop"
fi
echo "Installed. Start it from the applications menu or with: $VENV/bin/cvrag-desktop"
echo "Check it with: $VENV/bin/cvrag doctor   (and $VENV/bin/cvrag-desktop --self-test)"
