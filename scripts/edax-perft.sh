#!/usr/bin/env bash
# edax-perft.sh EDAX_DIR [DEPTH]: Othello perft from the start, Edax against
# gametune, side by side on this machine (issue 56).
#
# EDAX_DIR is an Edax source tree as you get it from GitHub
# (git clone https://github.com/abulmo/edax-reversi; the tree itself or its
# src/ directory). Nothing of Edax is kept in this repository: the script
# builds Edax in a temporary directory, the way its Makefile does (the whole
# program as one unit, src/all.c), with a small main of ours in place of
# Edax's own. That main calls Edax's own perft (count_game in src/perft.c,
# the move generator test behind its "count games" command, whose counts
# agree with ours: passes are a ply, finished games are not extended) once
# from the start, so Edax never loads its evaluation file, its book or its
# hash tables, and times it. Edax's "count games" may also use its hashed
# count (quick_count_games, FAST_PERFT in settings.h); that one keeps
# transpositions, so it is not compared here.
#
# Then it builds ./cmd/tune and runs `tune perft othello DEPTH`. Each side
# runs three times, in turns; the best of three is compared. Both count the
# last ply in bulk (the number of legal moves of each position one ply
# above). The two counts must agree (212,258,216 leaves at depth 11).
#
# Settings (environment):
#   CC           C compiler (gcc)
#   EDAX_CFLAGS  Edax's flags (-O3 -march=native -DNDEBUG); add -mno-avx512f
#                for a build that uses AVX2 at most on a CPU with AVX-512, and
#                -DUSE_GAS_X64 -DPOPCOUNT -DHAS_CPU_64 for Edax 4.4 and older
#                (what their Makefile's x64-modern adds)
#   GOAMD64      passed to go build as usual (v1 when unset; v3 for AVX2)
#   RUNS         runs a side (3)
#
# Run it alone on the machine: the figures are wall-clock times.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 EDAX_DIR [DEPTH]  (EDAX_DIR: a clone of https://github.com/abulmo/edax-reversi)" >&2
  exit 2
fi
depth=${2:-11}
case $depth in
  '' | *[!0-9]*) echo "$0: depth must be a whole number from 1 to 20, not \"$depth\"" >&2; exit 2 ;;
esac
if [ "$depth" -lt 1 ] || [ "$depth" -gt 20 ]; then
  echo "$0: depth must be from 1 to 20, not $depth" >&2
  exit 2
fi
src=$1
[ -f "$src/src/all.c" ] && src=$src/src
if [ ! -f "$src/all.c" ] || [ ! -f "$src/perft.c" ]; then
  echo "$0: $1 is not an Edax source tree: no src/all.c and src/perft.c (clone https://github.com/abulmo/edax-reversi)" >&2
  exit 1
fi
src=$(realpath "$src")
repo=$(cd "$(dirname "$0")/.." && pwd)
cc=${CC:-gcc}
cflags=${EDAX_CFLAGS:--O3 -march=native -DNDEBUG}
runs=${RUNS:-3}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Our main in place of Edax's: the whole of Edax is one unit (all.c), so its
# static count_game is in reach. main.c's main is renamed and never called.
cat >"$work/edax_perft.c" <<'EOF'
#define main edax_main
#include "all.c"
#undef main
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	const int depth = argc > 1 ? atoi(argv[1]) : 11;
	Board board;
	GameStatistics stats = GAME_STATISTICS_INIT;
	struct timespec t0, t1;

	board_init(&board);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	count_game(&board, depth, &stats);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%llu %.6f\n", (unsigned long long) (stats.n_moves + stats.n_passes),
		(double) (t1.tv_sec - t0.tv_sec) + 1e-9 * (double) (t1.tv_nsec - t0.tv_nsec));
	return 0;
}
EOF

echo "building Edax from $src with $cc $cflags" >&2
# shellcheck disable=SC2086 # the flags are words
"$cc" $cflags -D_GNU_SOURCE=1 -w -I"$src" -o "$work/edax-perft" "$work/edax_perft.c" -lm -lpthread -lrt
echo "building tune (GOAMD64=${GOAMD64:-v1})" >&2
(cd "$repo" && go build -o "$work/tune" ./cmd/tune)

best() { # best LEAVES SECONDS... : the smallest time
  printf '%s\n' "$@" | sort -g | head -1
}
edax_leaves='' tune_leaves=''
edax_times=() tune_times=()
for ((i = 1; i <= runs; i++)); do
  read -r n s < <("$work/edax-perft" "$depth")
  [ -n "$edax_leaves" ] && [ "$n" != "$edax_leaves" ] && { echo "$0: Edax counted $n, then $edax_leaves" >&2; exit 1; }
  edax_leaves=$n edax_times+=("$s")
  line=$("$work/tune" perft othello "$depth" 2>/dev/null)
  # perft othello depth 11: 212258216 nodes in 0.428 s (495.5 M nodes/s)
  n=$(echo "$line" | sed -n 's/.*: \([0-9]*\) nodes in \([0-9.]*\) s.*/\1/p')
  s=$(echo "$line" | sed -n 's/.*: \([0-9]*\) nodes in \([0-9.]*\) s.*/\2/p')
  if [ -z "$n" ] || [ -z "$s" ]; then
    echo "$0: cannot read tune's perft line: $line" >&2
    exit 1
  fi
  tune_leaves=$n tune_times+=("$s")
done
if [ "$edax_leaves" != "$tune_leaves" ]; then
  echo "$0: the counts differ at depth $depth: Edax $edax_leaves, tune $tune_leaves" >&2
  exit 1
fi
et=$(best "${edax_times[@]}")
tt=$(best "${tune_times[@]}")
echo "perft $depth from the start, $edax_leaves leaves, best of $runs ($(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg))"
awk -v n="$edax_leaves" -v et="$et" -v tt="$tt" -v ets="${edax_times[*]}" -v tts="${tune_times[*]}" 'BEGIN {
  printf "Edax   %8.3f s  %7.1f M leaves/s  (runs: %s)\n", et, n / et / 1e6, ets
  printf "tune   %8.3f s  %7.1f M leaves/s  (runs: %s)\n", tt, n / tt / 1e6, tts
  printf "tune / Edax: %.2fx\n", et / tt
}'
